import EntrainCore
import EntrainEngine
import Foundation

/// Turns OSC messages into engine changes and replies. Pure logic: it owns no socket, so tests
/// drive it directly. Every parameter of the table is reachable at its address, and at
/// ADDRESS/norm with 0…1 on the parameter's curve.
public struct OSCRouter: Sendable {
    public enum Action: Equatable, Sendable {
        /// Send this back to the sender.
        case reply(OSCMessage)
        /// Tell the sender what was wrong (rate-limited by the server), and log it.
        case error(address: String, reason: String)
        /// Add the sender (at this port, or its source port) to the feedback targets.
        case subscribe(port: Int?)
        case unsubscribe
    }

    /// The current engine (it can be replaced while running, e.g. on a sample-rate change).
    let host: @Sendable () -> EngineHost
    /// The engine frame a time tag falls on; nil for "as soon as possible".
    let frame: @Sendable (OSCTimetag) -> Int64?
    /// The arguments of the /status reply.
    let status: @Sendable () -> [OSCValue]
    /// Session transport and timer (nil: those addresses answer with an error).
    let transport: SessionTransport?

    public init(host: @escaping @Sendable () -> EngineHost, frame: @escaping @Sendable (OSCTimetag) -> Int64?,
                status: @escaping @Sendable () -> [OSCValue], transport: SessionTransport? = nil) {
        self.host = host
        self.frame = frame
        self.status = status
        self.transport = transport
    }

    public func handle(_ timed: TimedMessage) -> [Action] {
        let message = timed.message
        switch message.address {
        case "/ping": return [.reply(OSCMessage("/pong", message.arguments))]
        case "/status": return [.reply(OSCMessage("/status", status()))]
        case "/panic": return perform(message) { try host().panic() }
        case "/resume": return perform(message) { try host().resume() }
        case "/osc/subscribe":
            guard message.arguments.count <= 1 else { return [.error(address: message.address, reason: "expects at most one argument: i port")] }
            if let port = message.arguments.first {
                guard let n = port.number, n == n.rounded(), (1...65535).contains(n) else {
                    return [.error(address: message.address, reason: "port must be an integer 1–65535")]
                }
                return [.subscribe(port: Int(n))]
            }
            return [.subscribe(port: nil)]
        case "/osc/unsubscribe": return [.unsubscribe]
        default:
            if message.address.hasPrefix("/session/") || message.address.hasPrefix("/timer/") { return transportCommand(message) }
            return parameter(message, at: timed.timetag)
        }
    }

    /// /session/load s, /session/play, /session/pause, /session/stop, /session/seek f,
    /// /session/status; /timer/minutes f (no argument: a query), /timer/cancel.
    private func transportCommand(_ message: OSCMessage) -> [Action] {
        guard let transport else { return [.error(address: message.address, reason: "sessions are not available here")] }
        let arguments = message.arguments
        func number() throws -> Double {
            guard arguments.count == 1, let n = arguments[0].number, n.isFinite else {
                throw ParameterError.constraint(message.address, reason: "expects one number")
            }
            return n
        }
        do {
            switch message.address {
            case "/session/load":
                guard arguments.count == 1, let name = arguments[0].text else {
                    return [.error(address: message.address, reason: "expects one string: a session name")]
                }
                try transport.load(name)
            case "/session/play": return perform(message) { try transport.play() }
            case "/session/pause": return perform(message) { try transport.pause() }
            case "/session/stop": return perform(message) { try transport.stop() }
            case "/session/seek": try transport.seek(try number())
            case "/session/status": return transport.report().map(Action.reply)
            case "/timer/minutes":
                if arguments.isEmpty { return transport.report().filter { $0.address == "/timer/remaining" }.map(Action.reply) }
                try transport.setTimer(minutes: try number())
            case "/timer/cancel": return perform(message) { transport.cancelTimer() }
            default: return [.error(address: message.address, reason: "unknown address")]
            }
        } catch {
            return [.error(address: message.address, reason: Self.reason(error, address: message.address))]
        }
        return []
    }

    private func perform(_ message: OSCMessage, _ body: () throws -> Void) -> [Action] {
        guard message.arguments.isEmpty else { return [.error(address: message.address, reason: "takes no arguments")] }
        do { try body() } catch { return [.error(address: message.address, reason: "\(error)")] }
        return []
    }

    private func parameter(_ message: OSCMessage, at timetag: OSCTimetag) -> [Action] {
        let address = message.address
        let normalized = address.hasSuffix("/norm")
        let target = normalized ? String(address.dropLast(5)) : address
        let engine = host()
        guard let entry = try? engine.table.entry(for: target) else {
            return [.error(address: address, reason: "unknown address")]
        }
        let spec = entry.spec
        let arguments = message.arguments
        if arguments.isEmpty {  // a query
            let value = engine.values[entry.index]
            return [.reply(OSCMessage(address, [normalized ? .float(Float(spec.normalized(value))) : Self.natural(value, spec)]))]
        }
        guard arguments.count <= 2 else {
            return [.error(address: address, reason: "expects a value and an optional glide time in seconds, got \(arguments.count) arguments")]
        }
        do {
            let value = try normalized ? normalizedValue(arguments[0], spec) : naturalValue(arguments[0], spec)
            var glide: Double?
            if arguments.count == 2 {
                guard let seconds = arguments[1].number, seconds.isFinite, seconds >= 0 else {
                    return [.error(address: address, reason: "the glide time must be a number of seconds ≥ 0")]
                }
                glide = seconds
            }
            try engine.set(target, value, glide: glide, at: timetag.isImmediate ? nil : frame(timetag))
            return []
        } catch {
            return [.error(address: address, reason: Self.reason(error, address: target))]
        }
    }

    /// A value in natural units: numbers for continuous parameters, a name or index for
    /// choices, 1/0 or T/F for toggles.
    private func naturalValue(_ argument: OSCValue, _ spec: ParameterSpec) throws -> Double {
        switch (spec.kind, argument) {
        case (.choice, .string(let name)), (.choice, .symbol(let name)): return try spec.parse(name)
        case (.toggle, .true): return 1
        case (.toggle, .false): return 0
        default:
            guard let number = argument.number else {
                throw ParameterError.constraint(spec.address, reason: "expects \(Self.expected(spec)), got '\(argument.tag)'")
            }
            return try spec.validate(number)
        }
    }

    private func normalizedValue(_ argument: OSCValue, _ spec: ParameterSpec) throws -> Double {
        let n: Double
        switch argument {
        case .true: n = 1
        case .false: n = 0
        default:
            guard let number = argument.number else {
                throw ParameterError.constraint(spec.address + "/norm", reason: "expects a number 0–1, got '\(argument.tag)'")
            }
            n = number
        }
        guard n.isFinite else { throw ParameterError.notFinite(spec.address + "/norm") }
        return spec.value(fromNormalized: n)
    }

    /// The value as sent back: names for choices, 0/1 for toggles, floats otherwise.
    static func natural(_ value: Double, _ spec: ParameterSpec) -> OSCValue {
        switch spec.kind {
        case .choice(let options, _): return .string(options.indices.contains(Int(value)) ? options[Int(value)] : "")
        case .toggle: return .int32(value != 0 ? 1 : 0)
        case .continuous: return .float(Float(value))
        }
    }

    static func expected(_ spec: ParameterSpec) -> String {
        switch spec.kind {
        case .choice(let options, _): "one of \(options.joined(separator: ", ")) (or its index)"
        case .toggle: "1/0 or T/F"
        case .continuous: "a number" + (spec.unit.isEmpty ? "" : " in \(spec.unit)")
        }
    }

    /// The message for /error: the parameter error without the repeated address.
    static func reason(_ error: Error, address: String) -> String {
        let text = "\(error)"
        for prefix in [address + "/norm: ", address + ": "] where text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
        return text
    }
}
