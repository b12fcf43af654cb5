import Foundation

/// A private Avahi for tests: its own D-Bus system bus (a socket in a temporary folder) and an
/// avahi-daemon on it, so `avahi-publish` and `avahi-browse` run against a real mDNS responder
/// without touching the machine's own bus. Processes given `environment` talk to it.
public final class AvahiTestDaemon {
    let folder: URL
    let bus: Process
    let daemon: Process
    public let environment: [String: String]
    /// The prefix its daemon and browsers run through (`ip netns exec NS`: a private network).
    let through: [String]

    /// Throws when dbus-daemon or avahi-daemon is missing or does not come up (a test skips then).
    /// `through`: a prefix that execs the daemon elsewhere (a network namespace); the bus is a
    /// file socket, reached from any namespace.
    public init(through: [String] = []) throws {
        self.through = through
        for tool in ["/usr/bin/dbus-daemon", "/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TestSupportError.timeout("\(tool) is not installed")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("avahi-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let socket = folder.appendingPathComponent("bus").path
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>system</type><listen>unix:path=\(socket)</listen><auth>EXTERNAL</auth>
          <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>
        </busconfig>
        """.write(to: folder.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        try "[server]\nuse-ipv4=yes\nuse-ipv6=no\n[publish]\npublish-workstation=no\n"
            .write(to: folder.appendingPathComponent("avahi.conf"), atomically: true, encoding: .utf8)
        environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socket)"]
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(folder.appendingPathComponent("bus.conf").path)", "--nofork"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        // avahi-daemon closes every descriptor it inherits, Foundation's exit watch among them:
        // Foundation then waits (blocking) for a daemon that runs on, and no other child's exit is
        // seen again. A shell holds the watch instead, and passes SIGTERM on.
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: through.first ?? "/bin/sh")
        daemon.arguments = through.dropFirst() + (through.isEmpty ? [] : ["/bin/sh"]) + ["-c", "trap 'kill $child; wait $child' TERM; \"$@\" & child=$!; wait $child", "avahi-daemon"]
            + Self.privateRun + ["/usr/sbin/avahi-daemon", "--no-drop-root", "--no-chroot", "--no-rlimits",
                                 "-f", folder.appendingPathComponent("avahi.conf").path]
        daemon.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let logURL = folder.appendingPathComponent("avahi.log")
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        daemon.standardOutput = log
        daemon.standardError = log
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
        try daemon.run()
        func output() -> String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }
        while Date() < deadline + 5 && daemon.isRunning && !output().contains("Server startup complete") { usleep(50_000) }
        guard daemon.isRunning, output().contains("Server startup complete") else {
            let said = output()
            stop()
            throw TestSupportError.timeout("avahi-daemon did not start: \(said.suffix(300))")
        }
    }

    /// A /run/avahi-daemon of the daemon's own (a tmpfs in a mount namespace of its own), where
    /// the machine allows it: avahi-daemon keeps its PID file and socket there, at a path built in,
    /// so a second test daemon (another shard's, at the same moment) refused to start ("Daemon
    /// already running"). Each command then execs the next: the shell's child is the daemon.
    static let privateRun: [String] = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["--mount", "--propagation", "private", "true"]
        probe.standardError = FileHandle.nullDevice
        guard getuid() == 0, (try? probe.run()) != nil else { return [] }
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { return [] }
        return ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon && exec \"$@\"", "avahi-private-run"]
    }()

    /// Every resolved `type` service: (name, address, port), from `avahi-browse -rtp`, given at
    /// most 5 s (a service that never resolves would otherwise keep the browser, and the test, waiting).
    public func browse(_ type: String) throws -> [(name: String, address: String, port: Int)] {
        let process = Process(), out = Pipe()
        process.executableURL = URL(fileURLWithPath: through.first ?? "/usr/bin/timeout")
        process.arguments = through.dropFirst() + (through.isEmpty ? [] : ["/usr/bin/timeout"]) + ["5", "/usr/bin/avahi-browse", "-rtp", type]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        try out.fileHandleForWriting.close()  // else our own copy of the write end keeps the read from ever ending
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let f = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 9, f[0] == "=" else { return nil }
            return (f[3], f[7], Int(f[8]) ?? 0)
        }
    }

    public func stop() {
        for process in [daemon, bus] where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
