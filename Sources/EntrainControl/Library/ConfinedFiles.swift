import Foundation

/// Files found by name in a fixed list of directories and never outside them: what OSC may
/// load (sessions, haptic patterns). Absolute paths, `..` and links leading out are refused.
public struct ConfinedFiles: Sendable {
    public enum Failure: Error, Equatable {
        case outside(String)
        case notFound(String, [String])
    }

    public let directories: [URL]
    public let fileExtension: String

    public init(directories: [URL], fileExtension: String) {
        self.directories = directories.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        self.fileExtension = fileExtension
    }

    /// The first readable `name` (extension optional) in the directories, in order.
    public func resolve(_ name: String) throws(Failure) -> URL {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { throw .outside(name) }
        let file = name.hasSuffix("." + fileExtension) ? name : name + "." + fileExtension
        for directory in directories {
            let candidate = directory.appendingPathComponent(file).standardizedFileURL.resolvingSymlinksInPath()
            guard candidate.path.hasPrefix(directory.path + "/") else { throw .outside(name) }
            if FileManager.default.isReadableFile(atPath: candidate.path) { return candidate }
        }
        throw .notFound(name, directories.map(\.path))
    }
}
