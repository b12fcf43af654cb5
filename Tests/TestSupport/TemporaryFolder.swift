import Foundation

/// A fresh folder under the system's temporary directory for one test, with a helper to write
/// files into it; `remove()` in tearDown.
public struct TemporaryFolder {
    public let url: URL
    public var path: String { url.path }

    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Write `text` at `name` (subfolders made as needed).
    @discardableResult
    public func write(_ text: String, _ name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
