import EntrainFiles
import Foundation

/// A folder of named JSON documents (presets, playlists): names map to files safely, every
/// write is atomic, and reads never leave the folder (a link pointing out of it is refused).
/// One folder per kind under $XDG_DATA_HOME/entrain. Messages name documents as
/// `presets/NAME.json`, never by absolute path: they go back to OSC senders.
public struct NamedStore: Sendable {
    public let kind: String
    public let folder: URL

    public init(kind: String, folder: URL) {
        self.kind = kind
        self.folder = folder
    }

    /// $XDG_DATA_HOME/entrain (default ~/.local/share/entrain).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        DataDirectories(environment: environment).user
    }

    /// Names become file names: keep them to a safe alphabet, no path separators, no dot files.
    public static func check(_ name: String) throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " -_.()"))
        guard (1...64).contains(name.count), !name.hasPrefix("."), name.unicodeScalars.allSatisfy(allowed.contains),
              name.trimmingCharacters(in: .whitespaces) == name else { throw LibraryError.badName(name) }
    }

    func url(_ name: String) throws -> URL {
        try Self.check(name)
        return folder.appendingPathComponent(name + ".json")
    }

    public func exists(_ name: String) -> Bool { (try? url(name)).map { FileManager.default.fileExists(atPath: $0.path) } ?? false }

    public func names() -> [String] { Folder.names(in: [folder], extensions: ["json"]) }

    /// How the document `name` is named in messages.
    public func label(_ name: String) -> String { "\(folder.lastPathComponent)/\(name).json" }

    public func read(_ name: String) throws -> (text: String, url: URL) {
        let url = try url(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw LibraryError.notFound(kind, name) }
        return (try Self.readConfined(url, in: folder, label: label(name), kind: kind), url)
    }

    /// The text of `url`, which must lie in `folder` once links are followed (checked at the
    /// moment of reading, so a link made later is caught too), within the size cap.
    static func readConfined(_ url: URL, in folder: URL, label: String, kind: String) throws -> String {
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath()
        let inside = folder.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        guard resolved.path.hasPrefix(inside) else { throw LibraryError.outside(kind, label) }
        do { return try DocumentFile.text(resolved, label: label) } catch { throw LibraryError.unreadable(error) }
    }

    public func write(_ name: String, _ text: String) throws { try AtomicFile.write(Data(text.utf8), to: try url(name), label: label(name)) }

    public func rename(_ old: String, to new: String) throws {
        let from = try url(old), to = try url(new)
        guard FileManager.default.fileExists(atPath: from.path) else { throw LibraryError.notFound(kind, old) }
        guard !FileManager.default.fileExists(atPath: to.path) else { throw LibraryError.exists(kind, new) }
        guard Glibc.rename(from.path, to.path) == 0 else { throw LibraryError.cannotWrite(label(new), String(cString: strerror(errno))) }
    }

    public func delete(_ name: String) throws {
        let url = try url(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw LibraryError.notFound(kind, name) }
        guard unlink(url.path) == 0 else { throw LibraryError.cannotWrite(label(name), String(cString: strerror(errno))) }
    }
}
