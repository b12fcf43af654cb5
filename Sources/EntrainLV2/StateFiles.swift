import EntrainFiles
import Foundation
import Glibc

/// The files a plugin's saved state names (an impulse response, a sample): checked before the
/// plugin sees them. A state comes from a preset, the last-used settings or an OSC message, so
/// it may name only regular files inside the folders entrain keeps its own data in — never a
/// pipe (a convolver's worker opening one waits for a writer for good, and tearing the plugin
/// down would wait with it), a device or a socket, and nothing elsewhere on the machine.
public enum StateFiles {
    static let pathType = "http://lv2plug.in/ns/ext/atom#Path"

    /// The folders a state's files may lie in: the user's entrain data folder and the system's.
    public static var allowedFolders: [URL] {
        let directories = DataDirectories()
        return [directories.user] + directories.system + (directories.installed.map { [$0] } ?? [])
    }

    /// Refuses `state` if a path it names is not a regular file inside `folders`.
    static func check(_ state: PluginState, uri: String, folders: [URL] = allowedFolders) throws {
        for property in state.properties where property.type == pathType {
            let path = String(decoding: property.value.prefix { $0 != 0 }, as: UTF8.self)
            try check(path, uri: uri, folders: folders)
        }
    }

    static func check(_ path: String, uri: String, folders: [URL]) throws {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        let roots = folders.map { $0.resolvingSymlinksInPath().standardizedFileURL.path }
        guard roots.contains(where: { resolved.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            throw LV2Error.badChain("\(uri)'s state names \(path), outside the folders a state may name (\(folders.map(\.path).joined(separator: ", "))): copy the file into \(folders[0].path)")
        }
        var info = stat()
        guard stat(resolved, &info) == 0 else {
            throw LV2Error.badChain("\(uri)'s state names \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw LV2Error.badChain("\(uri)'s state names \(path), which is not a regular file (a pipe, device or socket is never handed to a plugin)")
        }
    }
}
