import EntrainFiles
import Foundation

/// Files found by name in a fixed list of directories and never outside them: what OSC may
/// load (sessions, haptic patterns, ambient presets). Absolute paths, `..` and links leading out
/// are refused. Messages name the store ("the session directories") and files by their name
/// in it, never by absolute path: they go back to whoever sent the request.
public struct ConfinedFiles: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case outside(String, kind: String)
        case notFound(String, kind: String)

        public var description: String {
            switch self {
            case .outside(let name, let kind): "'\(name)' is outside the \(kind) directories (give a name, not a path)"
            case .notFound(let name, let kind): "no \(kind) '\(name)' in the \(kind) directories"
            }
        }
    }

    public let directories: [URL]
    public let fileExtension: String
    /// What the files are, for messages: "session", "pattern", "ambient preset".
    public let kind: String

    public init(directories: [URL], fileExtension: String, kind: String) {
        self.directories = directories.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        self.fileExtension = fileExtension
        self.kind = kind
    }

    /// The first readable `name` (extension optional) in the directories, in order.
    public func resolve(_ name: String) throws(Failure) -> URL {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { throw .outside(name, kind: kind) }
        let file = name.hasSuffix("." + fileExtension) ? name : name + "." + fileExtension
        for directory in directories {
            let candidate = directory.appendingPathComponent(file).standardizedFileURL.resolvingSymlinksInPath()
            guard candidate.path.hasPrefix(directory.path + "/") else { throw .outside(name, kind: kind) }
            if FileManager.default.isReadableFile(atPath: candidate.path) { return candidate }
        }
        throw .notFound(name, kind: kind)
    }

    /// How a file found here is named in messages: the folder's own name and the file's path
    /// inside it ("sessions/theta.json").
    public func label(_ url: URL) -> String {
        for directory in directories where url.path.hasPrefix(directory.path + "/") {
            return directory.lastPathComponent + "/" + url.path.dropFirst(directory.path.count + 1)
        }
        return url.lastPathComponent
    }
}

extension ConfinedFiles {
    /// The names (without the extension) of the files directly in the directories, sorted, once
    /// each: what `resolve` would find.
    public func names() -> [String] { Folder.names(in: directories, extensions: [fileExtension]) }
}
