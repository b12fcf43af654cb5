import CJack
import Foundation

/// A private realtime `jackd -d dummy` under its own server name, so tests never touch a user's server.
/// Stopped when the object goes away, and stopped by the kernel when the test process dies any
/// other way (SIGKILL, a crash); what earlier runs left is cleaned up before each start.
public final class JackTestServer {
    /// Every test server's name starts so, followed by the test process's pid (see `JackdProcess`).
    public static let namePrefix = "entrain-test-"
    public let name: String
    public private(set) var sampleRate: Int
    public private(set) var period: Int
    private var process = Process()
    private let logURL: URL

    public convenience init(sampleRate: Int = 48000, period: Int = 256) throws {
        Self.cleanUpAfterEarlierRuns()
        try self.init(name: "\(Self.namePrefix)\(getpid())-\(UInt16.random(in: 0...UInt16.max))", sampleRate: sampleRate, period: period)
    }

    private init(name: String, sampleRate: Int, period: Int) throws {
        self.name = name
        self.sampleRate = sampleRate
        self.period = period
        logURL = Self.logURL(name: name)
        try launch()
    }

    /// Test servers whose test process is gone are stopped, and places in JACK's server registry
    /// that killed test servers kept are freed the only way JACK frees them: a server of the same
    /// name starts and exits cleanly. Only names of test processes that no longer run.
    static func cleanUpAfterEarlierRuns() {
        JackdProcess.reapOrphanedTestServers()
        for entry in JackServerRegistry.entries() where entry.isStale {
            guard let owner = JackdProcess.testProcess(ofServerNamed: entry.serverName),
                  kill(owner, 0) != 0 && errno == ESRCH else { continue }
            try? JackTestServer(name: entry.serverName, sampleRate: 48000, period: 1024).stop()
        }
    }

    static func logURL(name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name).log")
    }

    /// jackd's pid while it runs.
    public var processIdentifier: pid_t { process.processIdentifier }

    /// The server dies as in a crash (SIGKILL: no goodbye to its clients), reaped at once so
    /// a new one may take its name.
    public func crash() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

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
        // Realtime, as a rig runs it (jackd falls back to normal scheduling if it may not): the
        // process threads must not compete with the OSC thread or the test's own load.
        let jackd = ["/usr/bin/jackd", "-n", name, "-R", "-P", "70", "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
        let command = Self.diesWithTestProcess(jackd)
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var env = ProcessInfo.processInfo.environment
        env["JACK_NO_AUDIO_RESERVATION"] = "1"
        process.environment = env
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        guard waitUntilReady(timeout: 10) else {
            stop()
            throw TestSupportError.serverDidNotStart(log: (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
        }
    }

    /// `command` under util-linux's setpriv (on every Debian), which asks the kernel to SIGTERM it
    /// when its parent dies (PR_SET_PDEATHSIG) and then execs it (SIGTERM, not SIGKILL: jackd then
    /// leaves JACK's server registry, see `JackServerRegistry`): jackd keeps setpriv's pid, so
    /// terminate, kill and wait still act on jackd itself. Foundation's Process cannot set that
    /// for a child, and a watchdog process would be one more thing to leak. The kernel counts the
    /// parent thread, not process, so only a server started on the main thread (as XCTest runs
    /// tests), which lives as long as the process, gets it. Otherwise (or without setpriv) the
    /// reaping at the next start cleans up.
    static func diesWithTestProcess(_ command: [String]) -> [String] {
        let setpriv = "/usr/bin/setpriv"
        guard Thread.isMainThread, FileManager.default.isExecutableFile(atPath: setpriv) else { return command }
        return [setpriv, "--pdeathsig", "TERM"] + command
    }

    deinit { stop() }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: logURL)
    }

    /// Environment that points JACK clients (and the entrain binary) at this server.
    public var environment: [String: String] { ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"] }

    private func waitUntilReady(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status = jack_status_t(rawValue: 0)
            if let probe = entrain_jack_client_open("probe", JackNoStartServer, &status, name) {
                jack_client_close(probe)
                return true
            }
            if !process.isRunning { return false }
            usleep(50_000)
        }
        return false
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
