import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation

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

    /// The engine frame a time tag falls on; nil for "as soon as possible".
    let frame: @Sendable (OSCTimetag) -> Int64?
    /// Every value's address, by family.
    public let space: AddressSpace
    /// Every command this client handles, by address: the router's table.
    let commands: [String: DeclaredCommand]
    /// What gets the messages no declaration names (heart data).
    let sources: [any CommandSource]

    /// `space` nil: the engine's family alone, over `host`. Without `transport` or `library`
    /// their commands answer that they are not available here.
    public init(host: @escaping @Sendable () -> EngineHost, frame: @escaping @Sendable (OSCTimetag) -> Int64?,
                status: @escaping @Sendable () -> [OSCValue], transport: SessionTransport? = nil, library: Library? = nil,
                patterns: PatternPlayer? = nil, space: AddressSpace? = nil, handlers: [any CommandSource] = []) {
        self.frame = frame
        let space = space ?? AddressSpace([EngineFamily(CurrentEngine(host())), ClientFamily()])
        self.space = space
        let client = ClientCommands(host: host, status: status, patterns: patterns).commands
        let sessions = transport.map { t in SessionTransport.declarations.map { $0.bound(to: t) } }
            ?? SessionTransport.declarations.map { .unavailable($0.descriptor, "sessions are not available here") }
        let presets = library.map { LibraryCommands(library: $0, space: space, transport: transport).commands }
            ?? LibraryCommands.declarations.map { .unavailable($0.descriptor, "presets and playlists are not available here") }
        // The stores the commands' arguments name: offered by OSCQuery, read when asked.
        if let patterns { space.provide(.patterns) { patterns.files.names() } }
        if let transport { space.provide(.sessions) { transport.files.names() } }
        if let library {
            space.provide(.presets) { library.presets.store.names() }
            space.provide(.playlists) { library.playlists.store.names() }
        }
        for (catalog, names) in handlers.flatMap(\.catalogs) { space.provide(catalog, names) }
        var table: [String: DeclaredCommand] = [:]
        for command in client + sessions + presets + handlers.flatMap(\.commands) { table[command.descriptor.address] = command }
        commands = table
        sources = handlers
    }

    /// The command at `address`, if this client handles it.
    public func command(_ address: String) -> CommandDescriptor? { commands[address]?.descriptor }

    public func handle(_ timed: TimedMessage) -> [Action] {
        let message = timed.message
        let at = timed.timetag.isImmediate ? nil : frame(timed.timetag)
        if let command = commands[message.address] {
            // A person sent it; planned for later, it is a schedule.
            return command.run(message.arguments, at: at, door: at == nil ? .person : .schedule)
        }
        for source in sources { if let actions = source.handleUndeclared(timed, frame: at) { return actions } }
        return value(message, at: at)
    }

    /// A command called through another door than OSC (a MIDI binding: `.mapping`), with the
    /// same conventions; nil when no command has that address.
    public func perform(_ address: String, _ arguments: [OSCValue], door: ChangeDoor) -> [Action]? {
        commands[address]?.run(arguments, at: nil, door: door)
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
            let change = try descriptor.change(given, normalized: normalized)  // checked once, by the one descriptor
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
            try family.set([change.gliding(glide)], at: frame)
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

    /// The message for /error: the refusal without the repeated address.
    static func reason(_ error: Error, address: String) -> String {
        if let error = error as? ControlError, [address, address + "/norm"].contains(error.address) { return error.reason }
        let text = "\(error)"
        for prefix in [address + "/norm: ", address + ": "] where text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
        return text
    }
}
