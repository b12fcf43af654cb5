import Foundation

/// Finds and runs the built `entrain` executable (the real binary, as a user runs it).
public enum EntrainBinary {
    /// The package root, from this file's location (Tests/TestSupport/…).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// $ENTRAIN_BINARY, else the release build (what `make test` builds), else the debug build.
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["ENTRAIN_BINARY"] { return URL(fileURLWithPath: path) }
        for configuration in ["release", "debug"] {
            let candidate = packageRoot.appendingPathComponent(".build/\(configuration)/entrain")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/release/entrain")
    }

    /// A private data directory for every client this test process starts.
    public static let dataDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-data-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    public struct Result {
        public let status: Int32
        public let output: String
        public let error: String
    }

    /// Run to completion, capturing stdout and stderr.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let launched = try launch(arguments, environment: environment)
        launched.process.waitUntilExit()
        return launched.result()
    }

    /// Start without waiting. Output goes to temporary files so a chatty child never blocks on a pipe.
    /// `wrapper` runs the binary through another program that takes it after `--`
    /// (`["/usr/bin/prlimit", "--nofile=300"]`); `through`, through a command that execs it
    /// (`ip netns exec NS`), keeping its pid.
    public static func launch(_ arguments: [String], environment: [String: String] = [:], wrapper: [String] = [],
                              through: [String] = []) throws -> Launched {
        let process = Process()
        let prefix = wrapper.isEmpty ? Array(through.dropFirst()) : Array(wrapper.dropFirst()) + ["--"]
        process.executableURL = (wrapper.first ?? through.first).map { URL(fileURLWithPath: $0) } ?? url
        process.arguments = wrapper.isEmpty && through.isEmpty ? arguments : prefix + [url.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = dataDirectory.path  // never a real user's presets or last-used settings
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let out = directory.appendingPathComponent("entrain-\(id).out")
        let err = directory.appendingPathComponent("entrain-\(id).err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return Launched(process: process, outputURL: out, errorURL: err)
    }

    public final class Launched {
        public let process: Process
        let outputURL: URL
        let errorURL: URL
        init(process: Process, outputURL: URL, errorURL: URL) {
            self.process = process
            self.outputURL = outputURL
            self.errorURL = errorURL
        }

        deinit {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }

        public func result() -> Result {
            Result(status: process.isRunning ? -1 : process.terminationStatus,
                   output: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
                   error: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
        }

        /// Send a signal (SIGINT = Ctrl-C) and wait up to `timeout` seconds for the exit.
        @discardableResult
        public func signal(_ sig: Int32, waitUpTo timeout: TimeInterval) -> Bool {
            kill(process.processIdentifier, sig)
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            return !process.isRunning
        }
    }
}
