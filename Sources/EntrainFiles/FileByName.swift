import Foundation

/// A command-line argument that may be a path or the name of a shipped or saved file
/// (`--ambient-preset Tidal_Glass`, `--session theta-meditation`): a path that exists wins;
/// otherwise a bare name is looked up in the kind's folders, and the error says where.
public struct FileByName: Sendable {
    /// What the files are, for messages: "ambient preset", "session".
    public let kind: String
    public let folders: [URL]
    /// Extensions tried after the name as given, in order ("json").
    public let extensions: [String]
    public let directories: DataDirectories

    public init(kind: String, folders: [URL], extensions: [String], directories: DataDirectories = DataDirectories()) {
        self.kind = kind
        self.folders = folders
        self.extensions = extensions
        self.directories = directories
    }

    public struct NotFound: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public func resolve(_ argument: String) throws(NotFound) -> URL {
        let given = URL(fileURLWithPath: argument)
        if FileManager.default.fileExists(atPath: given.path) { return given }
        let isName = !argument.isEmpty && !argument.contains("/") && argument != "." && argument != ".."
        guard isName else {
            throw NotFound(description: "\(argument): no such file")
        }
        let candidates = [argument] + extensions.filter { !argument.hasSuffix("." + $0) }.map { argument + "." + $0 }
        for folder in folders {
            for name in candidates {
                let url = folder.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue { return url }
            }
        }
        let looked = folders.map(directories.display).joined(separator: ", ")
        let known = names().prefix(24)
        let hint = known.isEmpty ? "" : "; \(kind)s found there: \(known.joined(separator: ", "))\(names().count > known.count ? ", …" : "")"
        let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        throw NotFound(description: "'\(argument)' is not a file, nor the name of \(article) \(kind) in \(looked)\(hint)")
    }

    /// The names (without extension) of the files of this kind in the folders, sorted, once each.
    public func names() -> [String] { Folder.names(in: folders, extensions: extensions) }
}
