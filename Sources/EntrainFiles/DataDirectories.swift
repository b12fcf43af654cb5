import Foundation

/// Where entrain looks for files of one kind ("sessions", "patterns", "ambient", …), in order:
/// the folder named on the command line (by default the checkout's own, relative to the working
/// directory), the user's `$XDG_DATA_HOME/entrain/KIND`, each `$XDG_DATA_DIRS` entry's
/// `entrain/KIND`, and the installed copy beside the binary (`PREFIX/share/entrain/KIND` for a
/// binary in `PREFIX/bin`). A clone, a user's own files and `make install` then all work the same.
public struct DataDirectories: Sendable {
    public let environment: [String: String]
    /// The running binary, for the installed share folder beside it.
    public let executable: URL?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executable: URL? = Self.runningExecutable()) {
        self.environment = environment
        self.executable = executable
    }

    /// `$XDG_DATA_HOME/entrain` (default `~/.local/share/entrain`): the user's own files and
    /// where entrain saves.
    public var user: URL {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        return base.appendingPathComponent("entrain")
    }

    /// `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`), each with `entrain` appended.
    public var system: [URL] {
        let list = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return list.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("entrain") }
    }

    /// `PREFIX/share/entrain` for a binary installed as `PREFIX/bin/entrain`; nil when the binary
    /// does not sit in a `bin` folder (a build folder, say).
    public var installed: URL? {
        guard let executable else { return nil }
        let bin = executable.deletingLastPathComponent()
        guard bin.lastPathComponent == "bin" else { return nil }
        return bin.deletingLastPathComponent().appendingPathComponent("share/entrain")
    }

    /// Every folder to search for KIND, first match wins; duplicates removed. `local` is the
    /// command line's folder (relative paths against the working directory), if any.
    public func search(_ kind: String, local: String?) -> [URL] {
        var folders: [URL] = []
        if let local { folders.append(URL(fileURLWithPath: local)) }
        folders.append(user.appendingPathComponent(kind))
        folders += system.map { $0.appendingPathComponent(kind) }
        if let installed { folders.append(installed.appendingPathComponent(kind)) }
        var seen = Set<String>()
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The user's folder for KIND, where saves go.
    public func userFolder(_ kind: String) -> URL { user.appendingPathComponent(kind) }

    /// A folder as a person reads it: the home folder as `~`, the working directory's children
    /// relative.
    public func display(_ folder: URL) -> String {
        let path = folder.standardizedFileURL.path
        let cwd = FileManager.default.currentDirectoryPath
        if path.hasPrefix(cwd + "/") { return "./" + path.dropFirst(cwd.count + 1) }
        if let home = environment["HOME"], !home.isEmpty, path.hasPrefix(home + "/") { return "~/" + path.dropFirst(home.count + 1) }
        return path
    }

    public static func runningExecutable() -> URL? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path)
    }
}
