import CJack
import Foundation

/// A private realtime `jackd -d dummy` under its own server name, so tests never touch a user's server.
/// Stopped when the object goes away. With ENTRAIN_TEST_SERVER=pipewire (under pw-jack) it is a
/// private headless PipeWire instead, serving JACK clients by the same name (see PipeWireDaemon).
public final class JackTestServer {
    public let name: String
    public private(set) var sampleRate: Int
    public private(set) var period: Int
    /// PipeWire's JACK rather than jackd: no `system:` ports, the quantum set by the graph.
    public let isPipeWire = PipeWireDaemon.wanted
    /// (PipeWire) a "default" metadata object for JACK's port properties, as a session manager makes.
    private let metadata: Bool
    private var process = Process()
    private let logURL: URL

    public init(sampleRate: Int = 48000, period: Int = 256, metadata: Bool = true) throws {
        self.metadata = metadata
        name = "entrain-test-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        self.sampleRate = sampleRate
        self.period = period
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log")
        try launch()
    }

    /// The server dies as in a crash (SIGKILL: no goodbye to its clients), reaped at once so
    /// a new one may take its name.
    public func crash() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The server stops answering, as one under a debugger or wedged in a write does (SIGSTOP);
    /// `proceed` lets it go on.
    public func freeze() { if process.isRunning { kill(process.processIdentifier, SIGSTOP) } }
    public func proceed() { if process.isRunning { kill(process.processIdentifier, SIGCONT) } }

    /// Start a server under the same name again (after `crash` or `stop`), maybe at another
    /// rate or period.
    public func restart(sampleRate: Int? = nil, period: Int? = nil) throws {
        crash()
        if let sampleRate { self.sampleRate = sampleRate }
        if let period { self.period = period }
        process = Process()
        try launch()
    }

    private func launch() throws {
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        if isPipeWire {
            try PipeWireDaemon.prepare(process, name: name, sampleRate: sampleRate, period: period, metadata: metadata, log: logURL)
        } else {
            prepareJackd()
        }
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        guard waitUntilReady(timeout: 10) else {
            stop()
            throw TestSupportError.serverDidNotStart(log: (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
        }
    }

    private func prepareJackd() {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        // Realtime, as a rig runs it (jackd falls back to normal scheduling if it may not): the
        // process threads must not compete with the OSC thread or the test's own load.
        process.arguments = ["-n", name, "-R", "-P", "70", "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
        var env = ProcessInfo.processInfo.environment
        env["JACK_NO_AUDIO_RESERVATION"] = "1"
        process.environment = env
    }

    deinit { stop() }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: logURL)
        try? FileManager.default.removeItem(at: logURL.deletingPathExtension().appendingPathExtension("conf"))
    }

    /// Whether jackd is still running.
    public var isRunning: Bool { process.isRunning }

    /// Environment that points JACK clients (and the entrain binary) at this server.
    public var environment: [String: String] {
        isPipeWire ? PipeWireDaemon.environment(name: name) : ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"]
    }

    private func waitUntilReady(timeout: TimeInterval) -> Bool {
        var ready = false
        waitUntil(timeout: timeout, interval: 0.01) {
            var status = jack_status_t(rawValue: 0)
            if let probe = entrain_jack_client_open("probe", JackNoStartServer, &status, name) {
                jack_client_close(probe)
                ready = true
            }
            return ready || !process.isRunning
        }
        return ready
    }
}

public enum TestSupportError: Error, CustomStringConvertible {
    case serverDidNotStart(log: String)
    case cannotOpenClient
    case timeout(String)

    public var description: String {
        switch self {
        case .serverDidNotStart(let log): "jackd did not start:\n\(log)"
        case .cannotOpenClient: "cannot open a JACK client on the test server"
        case .timeout(let what): "timed out waiting for \(what)"
        }
    }
}
