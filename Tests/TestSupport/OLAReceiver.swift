import Foundation

/// One universe's frame as OLA recorded it: when (seconds from the recording's start, from the
/// recorder's own delays between frames), and its channels.
public struct OLAFrame: Sendable {
    public var universe: Int
    public var time: Double
    public var channels: [UInt8]
}

extension [OLAFrame] {
    /// Frames a second (the recorder's delays are whole milliseconds, so a second's count is off
    /// by a frame or two).
    public var framesPerSecond: Double { TestSupport.framesPerSecond(arrivals: map(\.time)) }
}

/// OLA's olad as a real sACN (E1.31) or Art-Net receiver: in a network namespace of the test's
/// own, on a veth pair whose other end stays on the host (so a client on the host reaches it by
/// unicast), its plugin bound to the namespace's address and its input ports patched to
/// universes; olad refuses root, so it runs as `nobody`. `record` reads universes back with
/// ola_recorder. Everything (olad, the namespace and the veth pair) goes away with the object.
public final class OLAReceiver {
    /// Which of olad's plugins receives: E1.31, or Art-Net (four input ports at net 0, subnet 0,
    /// each listening to its OLA universe modulo 16 as the Art-Net universe).
    public enum Kind: Sendable {
        case sacn, artNet

        var plugin: String { self == .sacn ? "e131" : "artnet" }
        /// What ola_dev_info calls its device ("Device 3: E1.31 (DMX over ACN) …").
        var deviceName: String { self == .sacn ? "E1.31" : "Art" }
    }

    public let namespace: String
    public let kind: Kind
    /// olad's address (inside the namespace) and the host end's.
    public let address: String
    private let hostSide: String
    private let config: URL
    private var daemon: Process?

    /// Why OLA cannot be run here, or nil when it can.
    public static var unavailable: String? {
        if getuid() != 0 { return "the OLA receiver needs root for its network namespace" }
        for tool in ["/usr/bin/olad", "/usr/bin/ola_patch", "/usr/bin/ola_recorder", "/usr/bin/ola_dev_info"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "no \(tool) (scripts/install-deps.sh installs the Debian package ola)"
        }
        if !FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") { return "no /usr/sbin/ip (iproute2)" }
        return nil
    }

    public init(universes: [Int], kind: Kind = .sacn) throws {
        self.kind = kind
        let tag = "\(getpid() % 100_000)x\(UInt16.random(in: 0...UInt16.max))"
        namespace = "entrain-ola-\(tag)"
        hostSide = "eoh\(tag)".prefix(15).description
        let inside = "eoi\(tag)".prefix(15).description
        let net = "10.\(180 + Int.random(in: 0...60)).\(Int.random(in: 0...250))"
        address = net + ".1"
        config = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-ola-\(tag)")
        do {
            try PrivateNetwork.ip(["netns", "add", namespace])
            try PrivateNetwork.ip(["link", "add", hostSide, "type", "veth", "peer", "name", inside])
            try PrivateNetwork.ip(["link", "set", inside, "netns", namespace])
            try PrivateNetwork.ip(["addr", "add", net + ".2/24", "dev", hostSide])
            try PrivateNetwork.ip(["link", "set", hostSide, "up"])
            try PrivateNetwork.ip(["-n", namespace, "addr", "add", address + "/24", "dev", inside])
            for device in [inside, "lo"] { try PrivateNetwork.ip(["-n", namespace, "link", "set", device, "up"]) }
            try startDaemon(universes: universes)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// A command run inside the namespace.
    private func inside(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try runProcess("/usr/sbin/ip", ["netns", "exec", namespace, tool] + arguments)
    }

    private func startDaemon(universes: [Int]) throws {
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // The receiving plugin on the namespace's address with enough input ports; every other plugin off.
        let settings = kind == .sacn
            ? "enabled = true\nip = \(address)\ninput_ports = \(max(4, universes.count))\noutput_ports = 0\nignore_preview = true\nrevision = 0.46\n"
            : "enabled = true\nip = \(address)\nnet = 0\nsubnet = 0\noutput_ports = 0\nalways_broadcast = false\nuse_loopback = false\nshort_name = entrain-test\n"
        try settings.write(to: config.appendingPathComponent("ola-\(kind.plugin).conf"), atomically: true, encoding: .utf8)
        for plugin in Self.plugins where plugin != kind.plugin {
            try "enabled = false\n".write(to: config.appendingPathComponent("ola-\(plugin).conf"), atomically: true, encoding: .utf8)
        }
        _ = try runProcess("/bin/chown", ["-R", "nobody:nogroup", config.path])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = ["netns", "exec", namespace, "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                             "/usr/bin/olad", "--config-dir", config.path, "--no-http", "--no-register-with-dns-sd", "--log-level", "2"]
        let log = config.appendingPathComponent("olad.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        daemon = process
        // The plugin's device once olad answers; then its input ports onto the universes.
        var device: String?
        try waitFor("olad to offer its \(kind.deviceName) device (log: \(log.path))", timeout: 20, interval: 0.2) {
            guard process.isRunning else { throw OLAError.daemon(try String(contentsOf: log, encoding: .utf8)) }
            let (status, output) = try inside("/usr/bin/ola_dev_info", [])
            device = status == 0 ? Self.device(named: kind.deviceName, in: output) : nil
            return device != nil
        }
        for (port, universe) in universes.enumerated() {
            let (status, output) = try inside("/usr/bin/ola_patch", ["--device", device!, "--port", "\(port)", "--universe", "\(universe)", "--input"])
            guard status == 0 else { throw OLAError.patch(output) }
        }
    }

    /// The plugins olad would otherwise load (the one receiving aside, hardware probes we do not want in a test).
    static let plugins = ["artnet", "e131", "dummy", "espnet", "ftdidmx", "gpio", "karate", "kinet", "milinst", "opendmx", "openpixelcontrol",
                          "osc", "pathport", "renard", "sandnet", "shownet", "spi", "stageprofi", "uartdmx", "usbdmx", "usbserial", "dmx4linux"]

    /// The id of the device whose line in ola_dev_info's listing names `name`.
    static func device(named name: String, in listing: String) -> String? {
        for line in listing.split(separator: "\n") where line.contains(name) {
            let words = line.split(separator: " ")
            if words.count > 1, words[0] == "Device" { return String(words[1].dropLast()) }
        }
        return nil
    }

    /// `seconds` of `universes` as ola_recorder writes them. Its `--duration` does not end a
    /// recording: it is stopped with SIGINT (its Ctrl-C) once the window has passed. `started`
    /// runs once the recorder is writing (to change something while it records).
    public func record(universes: [Int], seconds: Double, started: () -> Void = {}) throws -> [OLAFrame] {
        let file = config.appendingPathComponent("show-\(UInt32.random(in: 0...UInt32.max))")
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        recorder.arguments = ["netns", "exec", namespace, "/usr/bin/ola_recorder", "--record", file.path,
                              "--universes", universes.map(String.init).joined(separator: ",")]
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        try recorder.run()
        try waitFor("ola_recorder to start its show file", timeout: 10) {
            guard recorder.isRunning else { throw OLAError.record("ended with status \(recorder.terminationStatus)") }
            return ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) > 0
        }
        started()
        // The window is what the recorder has written (its frames' delays add up to `seconds`),
        // not our clock: an olad slowed by a loaded machine is given the time it needs.
        try waitFor("ola_recorder to record \(seconds) s", timeout: seconds + 20, interval: 0.1) {
            guard recorder.isRunning else { throw OLAError.record("ended with status \(recorder.terminationStatus)") }
            return (Self.frames((try? String(contentsOf: file, encoding: .utf8)) ?? "").last?.time ?? 0) >= seconds
        }
        recorder.interrupt()
        recorder.waitUntilExit()
        return Self.frames(try String(contentsOf: file, encoding: .utf8))
    }

    /// A show file: a first line naming the format, then each frame as a line "UNIVERSE
    /// v1,v2,…" followed by a line with the milliseconds until the next frame.
    static func frames(_ show: String) -> [OLAFrame] {
        var out: [OLAFrame] = []
        var time = 0.0
        var pending: (Int, [UInt8])?
        for line in show.split(separator: "\n").dropFirst() {
            let parts = line.split(separator: " ")
            if parts.count == 2, let universe = Int(parts[0]) {
                pending = (universe, parts[1].split(separator: ",").compactMap { UInt8($0) })
            } else if let ms = Double(line.trimmingCharacters(in: .whitespaces)), let (universe, channels) = pending {
                out.append(OLAFrame(universe: universe, time: time, channels: channels))
                time += ms / 1000
                pending = nil
            }
        }
        if let (universe, channels) = pending { out.append(OLAFrame(universe: universe, time: time, channels: channels)) }
        return out
    }

    public func stop() {
        if let daemon, daemon.isRunning {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        daemon = nil
        _ = try? PrivateNetwork.ip(["netns", "delete", namespace])  // takes the veth pair with it
        try? FileManager.default.removeItem(at: config)
    }
}

public enum OLAError: Error, CustomStringConvertible {
    case daemon(String), patch(String), record(String)
    public var description: String {
        switch self {
        case .daemon(let log): "olad stopped: \(log)"
        case .patch(let output): "ola_patch failed: \(output)"
        case .record(let output): "ola_recorder failed: \(output)"
        }
    }
}
