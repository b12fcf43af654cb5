import ArgumentParser
import EntrainControl
import EntrainDiscovery
import Foundation

/// `entrain ctl`: talk to a running client from a shell. liblo's `oscsend` cannot show replies
/// (they go back to the sender's port, where it does not listen); this waits for them.
struct Ctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Send OSC to a running entrain and print its replies (set, query, status, watch).",
        discussion: """
            Examples:
              entrain ctl /entrain/carrier 250      set a value (prints the value now in force)
              entrain ctl /entrain/carrier          ask for a value
              entrain ctl status                    the client's state, one field a line
              entrain ctl /panic                    silence and blackout
              entrain ctl --watch /beat/bpm         print every change of /beat/bpm until Ctrl-C
              entrain ctl --watch '/beat/*' --count 20
              entrain ctl --list                    the instances advertised on the network (mDNS)
              entrain ctl --name stage /panic       talk to the instance advertised as 'stage'
            Arguments are sent as int when they are whole numbers, float when they have a decimal point, \
            true/false as booleans, anything else as a string; prefix s:, i: or f: to choose (s:42). \
            Options may come before or after the address (--host, --port, --timeout). A set prints the \
            value now in force; a command without a reply (/panic, /session/play) prints what it changed \
            and exits 0.
            """)

    @Argument(help: ArgumentHelp("An OSC address (e.g. /entrain/carrier), or status or ping.", valueName: "address"))
    var address: String?
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The message's arguments.", valueName: "argument"))
    var arguments: [String] = []
    @Option(help: "The client's OSC host (an IPv4 address or localhost).")
    var host = "127.0.0.1"
    @Option(help: "The client's OSC UDP port (its --osc-port).")
    var port = 8000
    @Option(help: "Seconds to wait for the client to answer.")
    var timeout = 1.0
    @Option(help: ArgumentHelp("Subscribe to feedback and print the messages at this address, or under it with a trailing * (repeatable); until Ctrl-C.", valueName: "address"))
    var watch: [String] = []
    @Option(help: "With --watch: stop after this many messages.")
    var count: Int?
    @Flag(help: "List the instances advertised on the network (`entrain run --advertise`; needs avahi-daemon) and exit.")
    var list = false
    @Option(help: ArgumentHelp("Talk to the instance advertised under this name (its JACK client name) instead of --host and --port.", valueName: "name"))
    var name: String?

    mutating func validate() throws {
        try takeOptionsAmongArguments()
        guard timeout.isFinite, timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be more than 0 and at most 60 seconds") }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1–65535, got \(port)") }
        guard SocketAddress(host: host, port: port) != nil else { throw ValidationError("--host must be an IPv4 address or localhost, got '\(host)'") }
        if list {
            guard address == nil, watch.isEmpty, name == nil else { throw ValidationError("--list lists the instances; send messages in another `entrain ctl`") }
            return
        }
        if watch.isEmpty {
            guard let address else { throw ValidationError("give an address (e.g. /entrain/carrier), status, ping, or --watch ADDRESS") }
            guard address.hasPrefix("/") || ["status", "ping"].contains(address) else {
                throw ValidationError("'\(address)' is not an OSC address (they start with /) nor status or ping")
            }
        } else if address != nil {
            throw ValidationError("--watch prints feedback; send messages in another `entrain ctl`")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        for argument in arguments { _ = try CtlArgument.value(argument) }
    }

    /// The arguments are captured as they are (so `-6` stays a number), which also captures
    /// options written after the address, as the usage line puts them: take those out here.
    private mutating func takeOptionsAmongArguments() throws {
        var rest: [String] = []
        var words = arguments[...]
        while let word = words.popFirst() {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first, ["--host", "--port", "--timeout"].contains(name) else { rest.append(word); continue }
            guard let value = parts.count == 2 ? parts[1] : words.popFirst() else { throw ValidationError("\(name) needs a value") }
            switch name {
            case "--host": host = value
            case "--port":
                guard let n = Int(value) else { throw ValidationError("--port must be a whole number, got '\(value)'") }
                port = n
            default:
                guard let t = Double(value) else { throw ValidationError("--timeout must be a number of seconds, got '\(value)'") }
                timeout = t
            }
        }
        arguments = rest
    }

    func run() throws {
        if list { return try InstanceList.print() }
        let session = try name.map { try InstanceList.session(named: $0, timeout: timeout) }
            ?? CtlSession(host: host, port: port, timeout: timeout)
        try session.checkAlive()
        if !watch.isEmpty {
            SignalWatcher.install()
            session.watch(watch, count: count) { SignalWatcher.received > 0 }
            return
        }
        switch address {
        case "ping": print("pong from \(session.target)")
        case "status": try session.status()
        default: try session.send(OSCMessage(address!, try arguments.map(CtlArgument.value)))
        }
    }
}

/// Command-line words as OSC arguments.
enum CtlArgument {
    static func value(_ word: String) throws -> OSCValue {
        if word.hasPrefix("s:") { return .string(String(word.dropFirst(2))) }
        if word.hasPrefix("i:") {
            guard let number = Int32(word.dropFirst(2)) else { throw ValidationError("'\(word)': i: needs a whole number") }
            return .int32(number)
        }
        if word.hasPrefix("f:") {
            guard let number = Float(word.dropFirst(2)) else { throw ValidationError("'\(word)': f: needs a number") }
            return .float(number)
        }
        if word == "true" { return .true }
        if word == "false" { return .false }
        if let number = Int32(word) { return .int32(number) }
        if let number = Float(word), word.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return .float(number) }
        return .string(word)
    }

    /// An argument as a person reads it: numbers plainly, strings as they are.
    static func text(_ value: OSCValue) -> String {
        switch value {
        case .string(let s), .symbol(let s): s
        case .float(let f): String(format: "%g", Double(f))
        case .double(let d): String(format: "%g", d)
        case .true: "true"
        case .false: "false"
        default: value.number.map { String(format: "%g", $0) } ?? value.description
        }
    }

    static func line(_ message: OSCMessage) -> String {
        ([message.address] + message.arguments.map(text)).joined(separator: " ")
    }
}
