import Foundation
import Synchronization

/// jackd2's own transport tools, as a user would run them: `jack_transport` (commands on its
/// standard input: play, stop, tempo, master…) and `jack_showtime` (the position, printed).
public final class JackTransportTool {
    private let process = Process()
    private let input = Pipe()

    /// Starts `jack_transport` on `server`; nil when the tool is not installed.
    public init?(server: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/jack_transport") else { return nil }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jack_transport")
        process.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server]) { $1 }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // A tool that has died must fail its test, not kill the whole test process on a write.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
    }

    /// Whether the tool still runs (it ends when it cannot reach the server).
    public var isRunning: Bool { process.isRunning }

    /// One command line, e.g. "tempo 90", "master", "play", "stop".
    public func send(_ command: String) {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
        usleep(200_000)
    }

    public func quit() {
        send("quit")
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// (frame, beats since bar 1 beat 1) read from `jack_showtime` for `seconds`, or [] without it.
    public static func positions(server: String, seconds: Double) throws -> [(frame: Int, beats: Double)] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/jack_showtime") else { return [] }
        let show = Process()
        show.executableURL = URL(fileURLWithPath: "/usr/bin/jack_showtime")
        show.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server]) { $1 }
        let output = Pipe()
        show.standardOutput = output
        show.standardError = FileHandle.nullDevice
        // Drained while it runs: it prints many lines a cycle, and once the pipe's 64 KB were full
        // it blocked, so only the first 0.1 s of rolling was read (the tempo from 14 cycles).
        let printed = Printed()
        output.fileHandleForReading.readabilityHandler = { [printed] handle in
            let data = handle.availableData
            guard !data.isEmpty else { handle.readabilityHandler = nil; return }
            printed.data.withLock { $0.append(data) }
        }
        try show.run()
        usleep(UInt32(seconds * 1e6))
        show.interrupt()
        show.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        printed.data.withLock { $0.append(output.fileHandleForReading.readDataToEndOfFile()) }
        let text = printed.data.withLock { String(decoding: $0, as: UTF8.self) }
        // "frame = 93696  frame_time = … state: Rolling	BBT:   1|4|1735" (1920 ticks a beat from us, 4/4).
        return text.split(separator: "\n").compactMap { line in
            guard let f = line.range(of: "frame = "), let b = line.range(of: "BBT:") else { return nil }
            let frame = Int(line[f.upperBound...].prefix { $0.isNumber })
            let parts = line[b.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: "|").compactMap { Int($0) }
            guard let frame, parts.count == 3 else { return nil }
            return (frame, Double(parts[0] - 1) * 4 + Double(parts[1] - 1) + Double(parts[2]) / 1920)
        }
    }
}

private final class Printed: Sendable { let data = Mutex<Data>(Data()) }
