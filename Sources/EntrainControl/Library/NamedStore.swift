import Foundation

/// A folder of named JSON documents (presets, playlists): names map to files safely, and every
/// write is atomic. One folder per kind under $XDG_DATA_HOME/entrain.
public struct NamedStore: Sendable {
    public let kind: String
    public let folder: URL

    public init(kind: String, folder: URL) {
        self.kind = kind
        self.folder = folder
    }

    /// $XDG_DATA_HOME/entrain (default ~/.local/share/entrain).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return base.appendingPathComponent("entrain")
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

    public func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    public func read(_ name: String) throws -> (text: String, url: URL) {
        let url = try url(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw LibraryError.notFound(kind, name) }
        return (text, url)
    }

    public func write(_ name: String, _ text: String) throws { try AtomicFile.write(Data(text.utf8), to: try url(name)) }

    public func rename(_ old: String, to new: String) throws {
        let from = try url(old), to = try url(new)
        guard FileManager.default.fileExists(atPath: from.path) else { throw LibraryError.notFound(kind, old) }
        guard !FileManager.default.fileExists(atPath: to.path) else { throw LibraryError.exists(kind, new) }
        guard Glibc.rename(from.path, to.path) == 0 else { throw LibraryError.cannotWrite(to.path, String(cString: strerror(errno))) }
    }

    public func delete(_ name: String) throws {
        let url = try url(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw LibraryError.notFound(kind, name) }
        try FileManager.default.removeItem(at: url)
    }
}
