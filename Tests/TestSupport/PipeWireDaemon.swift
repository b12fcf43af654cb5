import CJack
import Foundation

/// A private headless PipeWire in place of jackd, for the live tests run under `pw-jack`
/// (`ENTRAIN_TEST_SERVER=pipewire`, see scripts/test-pipewire.sh): no session manager, no sound
/// card, its own runtime directory, and a socket named like the jackd fixture's server, so JACK
/// clients reach it by that server name (pipewire-jack takes a server name as the remote's).
///
/// What a desktop's session manager would add and JACK clients rely on is in the configuration:
/// the Dummy-Driver runs the graph (clients want a driver), and a "default" metadata object holds
/// the JACK port properties (pretty names, groups, signal types), unless `metadata` is false.
public enum PipeWireDaemon {
    /// The live tests of this process run on PipeWire.
    public static var wanted: Bool { ProcessInfo.processInfo.environment["ENTRAIN_TEST_SERVER"] == "pipewire" }

    /// One runtime directory per test process (its sockets are named per server), exported here
    /// so the test's own JACK clients find the servers too.
    static let runtimeDirectory: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-pipewire-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        setenv("PIPEWIRE_RUNTIME_DIR", dir.path, 1)
        return dir
    }()

    /// The path of the libjack this process runs with: PipeWire's under pw-jack, jackd2's otherwise.
    static var loadedJackLibrary: String {
        // Read to the end: /proc files have no size, and a reader going by the size reads nothing.
        let maps = FileHandle(forReadingAtPath: "/proc/self/maps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        let paths = maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        return paths.first { $0.contains("/libjack.so") } ?? "no libjack"
    }

    /// Set up `process` to run a daemon serving `name`, configured in a file beside `log`.
    static func prepare(_ process: Process, name: String, sampleRate: Int, period: Int, metadata: Bool, log: URL) throws {
        guard loadedJackLibrary.contains("pipewire") else {
            throw PipeWireError.notUnderPipeWireJack(library: loadedJackLibrary)
        }
        let config = log.deletingPathExtension().appendingPathExtension("conf")
        try configuration(name: name, sampleRate: sampleRate, period: period, metadata: metadata)
            .write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pipewire")
        process.arguments = ["-c", config.path]
        var env = ProcessInfo.processInfo.environment
        env["PIPEWIRE_RUNTIME_DIR"] = runtimeDirectory.path
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["PIPEWIRE_CONFIG_DIR"] = config.deletingLastPathComponent().path  // none of the user's or the system's drop-ins
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        process.environment = env
    }

    /// What entrain (and any JACK client started by a test) needs to reach the daemon `name`.
    static func environment(name: String) -> [String: String] {
        ["PIPEWIRE_RUNTIME_DIR": runtimeDirectory.path, "PIPEWIRE_REMOTE": name, "JACK_DEFAULT_SERVER": name,
         "JACK_NO_START_SERVER": "1"]
    }

    /// The daemon's configuration: the standard modules a JACK client needs, the quantum and
    /// rate pinned (no VM override raising the minimum to 1024), two drivers and no devices.
    static func configuration(name: String, sampleRate: Int, period: Int, metadata: Bool) -> String {
        """
        context.properties = {
            core.daemon = true
            core.name = \(name)
            default.clock.rate = \(sampleRate)
            default.clock.allowed-rates = [ \(sampleRate) ]
            default.clock.quantum = \(period)
            default.clock.min-quantum = 16
            default.clock.max-quantum = 8192
            support.dbus = false
            log.level = 2
        }
        context.spa-libs = {
            audio.convert.* = audioconvert/libspa-audioconvert
            support.* = support/libspa-support
        }
        context.modules = [
            { name = libpipewire-module-rt args = { nice.level = -11 } flags = [ ifexists nofail ] }
            { name = libpipewire-module-protocol-native }
            { name = libpipewire-module-profiler }
            { name = libpipewire-module-metadata }
            { name = libpipewire-module-spa-device-factory }
            { name = libpipewire-module-spa-node-factory }
            { name = libpipewire-module-client-node }
            { name = libpipewire-module-client-device }
            { name = libpipewire-module-access args = { } }
            { name = libpipewire-module-adapter }
            { name = libpipewire-module-link-factory }
            { name = libpipewire-module-session-manager }
        ]
        context.objects = [
            { factory = spa-node-factory args = { factory.name = support.node.driver node.name = Dummy-Driver
                node.group = pipewire.dummy priority.driver = 20000 } }
            { factory = spa-node-factory args = { factory.name = support.node.driver node.name = Freewheel-Driver
                priority.driver = 19000 node.group = pipewire.freewheel node.freewheel = true } }
        \(metadata ? "    { factory = metadata args = { metadata.name = default } }" : "")
        ]
        """
    }
}

public enum PipeWireError: Error, CustomStringConvertible {
    case notUnderPipeWireJack(library: String)

    public var description: String {
        switch self {
        case .notUnderPipeWireJack(let library):
            "ENTRAIN_TEST_SERVER=pipewire needs the tests run under pw-jack (PipeWire's libjack); this process loaded \(library)"
        }
    }
}
