import Foundation
import Glibc

/// Runs aubio's command-line tools (Debian package aubio-tools: `aubioonset`, `aubiotrack`) on
/// a sound file, as the reference to compare our detector against.
public enum AubioRunner {
    /// What one run produced and cost.
    public struct Run: Sendable {
        /// Onset or beat times in seconds, as aubio printed them.
        public let times: [Double]
        /// User + system CPU time of the aubio process.
        public let cpuSeconds: Double
        /// Wall-clock time from launch to exit.
        public let wallSeconds: Double
        /// The full command line, for reports.
        public let command: [String]
    }

    public static var isAvailable: Bool { path(of: "aubioonset") != nil && path(of: "aubiotrack") != nil }

    /// `aubioonset -i file -O method -B bufferSize -H hopSize`. Methods: default (= hfc), energy,
    /// hfc, complex, phase, specdiff, kl, mkl, specflux. Extra arguments (say `["-t", "0.5"]`)
    /// are passed on unchanged.
    public static func onsets(file: URL, method: String = "default", bufferSize: Int = 512, hopSize: Int = 256,
                              extraArguments: [String] = []) throws -> Run {
        try run("aubioonset", file: file, method: method, bufferSize: bufferSize, hopSize: hopSize, extra: extraArguments)
    }

    /// `aubiotrack -i file -O method -B bufferSize -H hopSize`; defaults are aubiotrack's own
    /// (1024/512; `-v` prints them). The method is the onset function the tracker runs on.
    public static func beats(file: URL, method: String = "default", bufferSize: Int = 1024, hopSize: Int = 512,
                             extraArguments: [String] = []) throws -> Run {
        try run("aubiotrack", file: file, method: method, bufferSize: bufferSize, hopSize: hopSize, extra: extraArguments)
    }

    // MARK: running

    /// Child CPU time is read from getrusage(RUSAGE_CHILDREN) before and after, which counts
    /// every child this process reaps; runs are serialised so two aubio runs never overlap, but
    /// other subprocesses ending at the same moment would be counted too.
    private static let lock = NSLock()

    private static func run(_ tool: String, file: URL, method: String, bufferSize: Int, hopSize: Int,
                            extra: [String]) throws -> Run {
        guard let executable = path(of: tool) else { throw AubioError.notInstalled(tool) }
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw AubioError.unreadableFile(file.path) }
        let arguments = ["-i", file.path, "-O", method, "-B", String(bufferSize), "-H", String(hopSize), "-T", "seconds"] + extra
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice

        lock.lock()
        defer { lock.unlock() }
        let cpuBefore = childrenCPUSeconds()
        let started = Date()
        try process.run()
        // Drain stderr on the side so a chatty child can never block on a full pipe.
        let errorText = AsyncText(errors.fileHandleForReading)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let wall = Date().timeIntervalSince(started)
        let cpu = childrenCPUSeconds() - cpuBefore
        let stderrText = errorText.wait()
        let command = [tool] + arguments
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw AubioError.failed(command: command, status: process.terminationStatus, stderr: stderrText)
        }
        return Run(times: try parseTimes(text, tool: tool), cpuSeconds: cpu, wallSeconds: wall, command: command)
    }

    /// One time in seconds per line; blank lines are skipped, anything else is an error.
    static func parseTimes(_ text: String, tool: String) throws -> [Double] {
        try text.split(whereSeparator: \.isNewline).compactMap { line in
            let field = line.trimmingCharacters(in: .whitespaces)
            if field.isEmpty { return nil }
            guard let time = Double(field), time.isFinite else { throw AubioError.unparsableOutput(tool: tool, line: String(line)) }
            return time
        }
    }

    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func path(of tool: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        return directories.lazy.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Reads a pipe to its end on a background thread.
// @unchecked: `text` is written once on the reading thread before `done` is signalled, and read
// only after waiting on `done`.
private final class AsyncText: @unchecked Sendable {
    private var text = ""
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            self.done.signal()
        }
    }

    func wait() -> String {
        done.wait()
        return text
    }
}

public enum AubioError: Error, CustomStringConvertible {
    case notInstalled(String)
    case unreadableFile(String)
    case failed(command: [String], status: Int32, stderr: String)
    case unparsableOutput(tool: String, line: String)

    public var description: String {
        switch self {
        case .notInstalled(let tool): "\(tool) not found on PATH; install aubio-tools (scripts/install-deps.sh aubio-tools)"
        case .unreadableFile(let path): "cannot read \(path)"
        case .failed(let command, let status, let stderr):
            "\(command.joined(separator: " ")) exited with status \(status): \(stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .unparsableOutput(let tool, let line): "\(tool) printed a line that is not a time: '\(line)'"
        }
    }
}
