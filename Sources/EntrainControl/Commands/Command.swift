import EntrainAddressSpace

/// One call of a command, whatever door it came through (OSC, the page's WebSocket, `ctl`, a
/// MIDI binding): the handler sees its arguments, the frame it is due on and who asked, never a
/// socket or a sender.
public struct CommandCall: Sendable {
    public let address: String
    public let arguments: [OSCValue]
    /// The engine frame it is due on: a time-tagged bundle's, for a schedulable command; nil: now.
    public let frame: Int64?
    public let door: ChangeDoor

    public init(_ address: String, _ arguments: [OSCValue] = [], frame: Int64? = nil, door: ChangeDoor = .person) {
        self.address = address
        self.arguments = arguments
        self.frame = frame
        self.door = door
    }
}

/// A declared command with its handler. The handler returns what goes back (replies, a
/// subscription) or throws the reason it refused.
public struct DeclaredCommand: Sendable {
    public typealias Handler = @Sendable (CommandCall) throws -> [OSCRouter.Action]

    public let descriptor: CommandDescriptor
    let handler: Handler

    public init(_ descriptor: CommandDescriptor, handler: @escaping Handler) {
        self.descriptor = descriptor
        self.handler = handler
    }

    /// The command where what handles it is missing from this client: every call is refused with `reason`.
    public static func unavailable(_ descriptor: CommandDescriptor, _ reason: String) -> DeclaredCommand {
        DeclaredCommand(descriptor) { _ in throw CommandError(reason) }
    }
}

/// A command declared on the type that handles it: the declaration and the handler side by
/// side, bound to an instance when a client is built (the schema needs the declaration alone).
public struct CommandDeclaration<Owner: Sendable>: Sendable {
    public let descriptor: CommandDescriptor
    let handler: @Sendable (Owner, CommandCall) throws -> [OSCRouter.Action]

    public init(_ descriptor: CommandDescriptor, handler: @escaping @Sendable (Owner, CommandCall) throws -> [OSCRouter.Action]) {
        self.descriptor = descriptor
        self.handler = handler
    }

    public func bound(to owner: Owner) -> DeclaredCommand { DeclaredCommand(descriptor) { try handler(owner, $0) } }
}

/// Something that handles commands: the router binds its commands, and gives it the messages
/// no declaration names (heart data arriving at a sensor's own addresses).
public protocol CommandSource: Sendable {
    var commands: [DeclaredCommand] { get }
    /// The lists its commands' arguments name (`Catalog`), read when asked.
    var catalogs: [Catalog: @Sendable () -> [String]] { get }
    /// A message at an address no command or value declares; nil: not this source's.
    func handleUndeclared(_ message: TimedMessage, frame: Int64?) -> [OSCRouter.Action]?
}

extension CommandSource {
    public var catalogs: [Catalog: @Sendable () -> [String]] { [:] }
    public func handleUndeclared(_ message: TimedMessage, frame: Int64?) -> [OSCRouter.Action]? { nil }

    /// This source alone, as the router would run it (for a source used without a router).
    public func handle(_ timed: TimedMessage, frame: Int64?) -> [OSCRouter.Action]? {
        if let command = commands.first(where: { $0.descriptor.address == timed.message.address }) {
            return command.run(timed.message.arguments, at: frame, door: frame == nil ? .person : .schedule)
        }
        return handleUndeclared(timed, frame: frame)
    }
}

/// A command refused: the reason goes back to the sender as /error.
public struct CommandError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ reason: String) { description = reason }
}

extension DeclaredCommand {
    /// Runs it with the controller conventions: a release of a button is ignored, `/panic` acts
    /// on anything, a person's command refuses other doors; the frame reaches only a schedulable one.
    func run(_ arguments: [OSCValue], at frame: Int64?, door: ChangeDoor) -> [OSCRouter.Action] {
        let address = descriptor.address
        do {
            try descriptor.check(door: door)
            if descriptor.trigger == .button {
                switch ControllerPress(arguments) {
                case .release: return []
                case .refused(let reason): return [.error(address: address, reason: reason)]
                case .press: break
                }
            }
            return try handler(CommandCall(address, arguments, frame: descriptor.schedulable ? frame : nil, door: door))
        } catch {
            return [.error(address: address, reason: OSCRouter.reason(error, address: address))]
        }
    }
}
