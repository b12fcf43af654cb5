import ArgumentParser
import EntrainControl

/// The OSC options of `entrain run`.
struct OSCOptions: ParsableArguments {
    @Option(name: .customLong("osc-port"), help: "UDP port for OSC (TouchOSC sends to 8000 by default).")
    var port = 8000
    @Option(name: .customLong("osc-tcp"), help: ArgumentHelp("Also accept OSC over TCP on this port (length-prefixed or SLIP framing).", valueName: "port"))
    var tcpPort: Int?
    @Flag(name: .customLong("no-osc"), help: "Run without the OSC server.")
    var disabled = false
    @Option(name: .customLong("osc-bind"), help: "Address to listen on. Anything but loopback needs --osc-allow.")
    var bind = "127.0.0.1"
    @Option(name: .customLong("osc-allow"), help: ArgumentHelp("Senders besides loopback that may control us: CIDR[,CIDR…] or 'any'.", valueName: "networks"))
    var allow: String?
    @Option(name: .customLong("osc-feedback"), help: ArgumentHelp("Also send feedback to HOST:PORT (TouchOSC listens on 9000). Repeatable.", valueName: "host:port"))
    var feedback: [String] = []
    @Option(name: .customLong("oscquery-port"), help: ArgumentHelp("TCP port of the OSCQuery server and the control page at /ui/ (default: the OSC port's number; 0: off).", valueName: "port"))
    var queryPort: Int?
    @Flag(name: .customLong("advertise"), help: "Advertise OSC (_osc._udp) and OSCQuery (_oscjson._tcp) on the local network with mDNS/DNS-SD, through Avahi.")
    var advertise = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--osc-port must be 0–65535") }
        if let tcpPort, !(0...65535).contains(tcpPort) { throw ValidationError("--osc-tcp must be 0–65535") }
        if let queryPort, !(0...65535).contains(queryPort) { throw ValidationError("--oscquery-port must be 0–65535") }
        if let tcpPort, tcpPort != 0, tcpPort == (queryPort ?? port) {
            throw ValidationError("--osc-tcp \(tcpPort) is the OSCQuery server's TCP port too: choose another, or move OSCQuery with --oscquery-port")
        }
        guard let address = SocketAddress(host: bind, port: port) else { throw ValidationError("--osc-bind: '\(bind)' is not an IPv4 address") }
        if !address.isLoopback && allow == nil {
            throw ValidationError("--osc-bind \(bind) opens OSC to a network: say who may send with --osc-allow CIDR[,CIDR…] (or --osc-allow any)")
        }
        _ = try configuration()
    }

    func configuration() throws -> OSCServer.Configuration {
        var configuration = OSCServer.Configuration()
        configuration.bind = bind
        configuration.port = port
        configuration.tcpPort = tcpPort
        do {
            if let allow { configuration.allow = try AllowList(parsing: allow) }
        } catch { throw ValidationError("--osc-allow: \(error)") }
        configuration.feedback = try feedback.map { text in
            guard let target = SocketAddress(text) else { throw ValidationError("--osc-feedback: '\(text)' is not HOST:PORT (IPv4)") }
            return target
        }
        return configuration
    }
}
