import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation

/// Addresses a family adds beyond its values (the ambient engine's transport and presets, …):
/// nil for a message that is not one of its commands.
public protocol OSCCommandHandler: Sendable {
    func handle(_ message: TimedMessage, frame: Int64?) -> [OSCRouter.Action]?
}

/// Turns OSC messages into changes and replies. Pure logic: it owns no socket, so tests drive
/// it directly. Every value of the address space is reachable at its address, and at
/// ADDRESS/norm with 0…1 on its curve; commands are the router's own and its handlers'.
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
    /// Presets and playlists (nil: those addresses answer with an error).
    let library: Library?
    /// Where /haptic/pattern finds its files (nil: patterns are refused).
    let patterns: PatternPlayer?
    /// Every value's address, by family.
    public let space: AddressSpace
    /// Families' own commands (tried in order before the values).
    let handlers: [any OSCCommandHandler]

    /// `space` nil: the engine's family alone, over `host`.
    public init(host: @escaping @Sendable () -> EngineHost, frame: @escaping @Sendable (OSCTimetag) -> Int64?,
                status: @escaping @Sendable () -> [OSCValue], transport: SessionTransport? = nil, library: Library? = nil,
                patterns: PatternPlayer? = nil, space: AddressSpace? = nil, handlers: [any OSCCommandHandler] = []) {
        self.host = host
        self.frame = frame
        self.status = status
        self.transport = transport
        self.library = library
        self.patterns = patterns
        self.space = space ?? AddressSpace([EngineFamily(CurrentEngine(host()))])
        self.handlers = handlers
    }

    public func handle(_ timed: TimedMessage) -> [Action] {
        let message = timed.message
        switch message.address {
        case "/ping": return [.reply(OSCMessage("/pong", message.arguments))]
        case "/status": return [.reply(OSCMessage("/status", status()))]
        case "/panic":
            // Whatever it carries (a button's press or release, anything): a blackout is never refused.
            host().panic()
            return []
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
        case "/haptic/pattern": return startPattern(message, at: timed.timetag)
        case "/haptic/pattern/stop": return perform(message) { try host().stopPattern() }
        default:
            if message.address.hasPrefix("/session/") || message.address.hasPrefix("/timer/") { return transportCommand(message) }
            if message.address.hasPrefix("/preset/") || message.address.hasPrefix("/playlist/") { return libraryCommand(message) }
            let at = timed.timetag.isImmediate ? nil : frame(timed.timetag)
            for handler in handlers { if let actions = handler.handle(timed, frame: at) { return actions } }
            return value(message, at: at)
        }
    }

    /// /haptic/pattern s: start an AHAP pattern (light and haptic pattern sources), at the
    /// bundle's time tag when it has one.
    private func startPattern(_ message: OSCMessage, at timetag: OSCTimetag) -> [Action] {
        guard let patterns else { return [.error(address: message.address, reason: "patterns are not available here")] }
        guard message.arguments.count == 1, let name = message.arguments[0].text else {
            return [.error(address: message.address, reason: "expects one string: a pattern name (from ./patterns)")]
        }
        do {
            try patterns.play(name, on: host(), at: timetag.isImmediate ? nil : frame(timetag))
        } catch {
            return [.error(address: message.address, reason: "\(error)")]
        }
        return []
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

    /// /preset/save|load|rename|delete|list and /playlist/create|add|remove|move|rename|delete|
    /// list|show|play (see osc-schema.md).
    private func libraryCommand(_ message: OSCMessage) -> [Action] {
        guard let library else { return [.error(address: message.address, reason: "presets and playlists are not available here")] }
        let a = message.arguments
        func text(_ i: Int) throws -> String {
            guard a.indices.contains(i), let t = a[i].text else { throw ParameterError.constraint(message.address, reason: "argument \(i + 1) must be a string") }
            return t
        }
        func number(_ i: Int) throws -> Double {
            // Bounded: these become Ints (positions, minutes), and Int(1e30) would trap.
            guard a.indices.contains(i), let n = a[i].number, n.isFinite, abs(n) < 1e9 else {
                throw ParameterError.constraint(message.address, reason: "argument \(i + 1) must be a number below 1e9")
            }
            return n
        }
        do {
            switch message.address {
            case "/preset/save": try library.presets.save(try text(0), entries: space.presetSnapshot())
            case "/preset/load":
                let loaded = try library.presets.changes(try text(0))
                let glide = a.count > 1 ? try number(1) : 2
                guard glide >= 0 else { throw ParameterError.constraint(message.address, reason: "the glide time must be ≥ 0") }
                // Every family of this client (a preset may name a plugin that is not loaded: skipped).
                try space.set(loaded.filter { Presets.appliesOnLoad($0.address) && space.lookup($0.address) != nil }
                    .map { ControlChange($0.address, $0.value, glide: glide) }, from: .file)
            case "/preset/rename": try library.presets.store.rename(try text(0), to: try text(1))
            case "/preset/delete": try library.presets.store.delete(try text(0))
            case "/preset/list": return [.reply(OSCMessage("/preset/list", library.presets.store.names().map { .string($0) }))]
            case "/playlist/create": try library.playlists.create(try text(0))
            case "/playlist/add":
                guard let kind = Playlists.Item.Kind(rawValue: try text(1)) else {
                    throw ParameterError.constraint(message.address, reason: "argument 2 must be preset or session")
                }
                let duration = kind == .preset ? try number(3) : nil
                if let duration, duration <= 0 { throw ParameterError.constraint(message.address, reason: "the duration must be > 0 seconds") }
                try library.playlists.add(Playlists.Item(kind: kind, name: try text(2), duration: duration), to: try text(0))
            case "/playlist/remove": try library.playlists.remove(Int(try number(1)), from: try text(0))
            case "/playlist/move": try library.playlists.move(Int(try number(1)), to: Int(try number(2)), in: try text(0))
            case "/playlist/rename": try library.playlists.store.rename(try text(0), to: try text(1))
            case "/playlist/delete": try library.playlists.store.delete(try text(0))
            case "/playlist/list": return [.reply(OSCMessage("/playlist/list", library.playlists.store.names().map { .string($0) }))]
            case "/playlist/show":
                let name = try text(0)
                let items = try library.playlists.items(name)
                return [.reply(OSCMessage("/playlist/show", [.string(name)] + items.flatMap { item -> [OSCValue] in
                    [.string(item.kind.rawValue), .string(item.name), .float(Float(item.duration ?? 0))]
                }))]
            case "/playlist/play":
                guard let transport else { throw ParameterError.constraint(message.address, reason: "sessions are not available here") }
                try transport.loadPlaylist(try text(0), from: library)
                try transport.play()
            default: return [.error(address: message.address, reason: "unknown address")]
            }
        } catch {
            return [.error(address: message.address, reason: Self.reason(error, address: message.address))]
        }
        return []
    }

    /// A command address: no argument or a button's press does it, a release is ignored.
    private func perform(_ message: OSCMessage, _ body: () throws -> Void) -> [Action] {
        switch ControllerPress(message.arguments) {
        case .release: return []
        case .refused(let reason): return [.error(address: message.address, reason: reason)]
        case .press:
            do { try body() } catch { return [.error(address: message.address, reason: "\(error)")] }
            return []
        }
    }

    /// ADDRESS [value [glide]] or ADDRESS/norm [f]: set (on the time tag's frame), or query
    /// without an argument.
    private func value(_ message: OSCMessage, at frame: Int64?) -> [Action] {
        let address = message.address
        let normalized = address.hasSuffix("/norm")
        let target = normalized ? String(address.dropLast(5)) : address
        guard let (family, descriptor) = space.lookup(target) else {
            return [.error(address: address, reason: "unknown address")]
        }
        let arguments = message.arguments
        if arguments.isEmpty {  // a query
            guard let value = family.value(of: target) else { return [.error(address: address, reason: "has no value yet")] }
            if !normalized { return [.reply(OSCMessage(address, [OSCValue(value)]))] }
            guard let n = descriptor.normalized(value) else {
                return [.error(address: address, reason: "has no /norm address (only ranged numbers, toggles and choices)")]
            }
            return [.reply(OSCMessage(address, [.float(Float(n))]))]
        }
        guard arguments.count <= 2 else {
            return [.error(address: address, reason: "expects a value and an optional glide time in seconds, got \(arguments.count) arguments")]
        }
        do {
            guard let given = ControlValue(osc: arguments[0]) else {
                throw ControlError(address, "expects \(Self.expected(descriptor, normalized: normalized)), got '\(arguments[0].tag)'")
            }
            let change = try space.parse(target, given, normalized: normalized)
            // A person sent it; planned for later, it is a schedule (which may not arm the strobe).
            try descriptor.check(door: frame == nil ? .person : .schedule)
            var glide: Double?
            if arguments.count == 2 {
                guard let seconds = arguments[1].number, seconds.isFinite, seconds >= 0, descriptor.glideSeconds != nil else {
                    return [.error(address: address, reason: descriptor.glideSeconds == nil ? "takes no glide time"
                                                              : "the glide time must be a number of seconds ≥ 0")]
                }
                glide = seconds
            }
            try family.set([ControlChange(target, change.value, glide: glide)], at: frame)
            return []
        } catch {
            return [.error(address: address, reason: Self.reason(error, address: target))]
        }
    }

    static func expected(_ descriptor: ControlDescriptor, normalized: Bool) -> String {
        if normalized { return "a number 0–1" }
        switch descriptor.kind {
        case .choice(let options, let indexed): return "one of \(options.joined(separator: ", "))\(indexed ? " (or its index)" : "")"
        case .toggle: return "1/0 or T/F"
        case .number: return "a number" + (descriptor.unit.isEmpty ? "" : " in \(descriptor.unit)")
        case .text, .list: return "a string"
        }
    }

    /// The message for /error: the parameter error without the repeated address.
    static func reason(_ error: Error, address: String) -> String {
        let text = "\(error)"
        for prefix in [address + "/norm: ", address + ": "] where text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
        return text
    }
}
