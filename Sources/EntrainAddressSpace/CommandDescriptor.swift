/// A command of the address space: something a sender does (`/panic`, `/session/load`), declared
/// by its family beside its values. The router dispatches on it, the file-reading rules, the
/// schema, the man page, OSCQuery and MIDI learn are made from it; nothing lists commands by hand.
public struct CommandDescriptor: Sendable {
    /// How a controller's button reaches the command.
    public enum Trigger: Sendable, Equatable {
        /// Its arguments and nothing else.
        case arguments
        /// No argument, or one number or bool as a push button sends it: non-zero or `T` does
        /// it (the press); zero, `F` or NaN is ignored without a reply (the release).
        case button
        /// Its arguments, or `T` (a press) / `F` (a release, ignored) in their place.
        case argumentsOrButton
        /// Every message, whatever it carries, press and release alike: `/panic`.
        case always
    }

    /// One argument: its OSC type tags (`"s"`, `"f"`, `"ih"` for either) and its name; for a
    /// name of something stored (a preset, a session), the catalog that lists what exists.
    public struct Argument: Sendable, Equatable {
        public let tags: String
        public let name: String
        public let optional: Bool
        public let catalog: Catalog?

        public static func required(_ tags: String, _ name: String, from catalog: Catalog? = nil) -> Argument {
            Argument(tags: tags, name: name, optional: false, catalog: catalog)
        }
        public static func optional(_ tags: String, _ name: String) -> Argument { Argument(tags: tags, name: name, optional: true, catalog: nil) }

        /// `s:name`, `[f:glide]`, `[i|h:seed]`.
        public var text: String {
            let core = tags.map(String.init).joined(separator: "|") + ":" + name
            return optional ? "[\(core)]" : core
        }
    }

    public let address: String
    /// How the schema lists it when commands of several buses share one row (`/fx/BUS/add`).
    public let pattern: String?
    public let arguments: [Argument]
    public let trigger: Trigger
    public let summary: String
    /// What comes back to the sender (Markdown); nil: nothing.
    public let reply: String?
    /// It reads a file (a session, a preset, a pattern): run off the OSC thread, the sender's later
    /// messages held behind it.
    public let readsFiles: Bool
    /// In a time-tagged bundle it happens on the tag's frame; otherwise at once (`/panic` never waits).
    public let schedulable: Bool
    /// A person's decision: never from a mapping, a MIDI binding or a time-tagged bundle.
    public let personOnly: Bool
    /// It changes nothing in the engine: its whole effect is what goes back to the sender (a
    /// liveness check, a snapshot, the sender's own feedback). A controller's button has nothing
    /// to press there, and a surface leaves it out.
    public let answersOnly: Bool

    public init(_ address: String, pattern: String? = nil, _ arguments: [Argument] = [], trigger: Trigger = .arguments,
                readsFiles: Bool = false, schedulable: Bool = false, personOnly: Bool = false, answersOnly: Bool = false,
                reply: String? = nil, _ summary: String) {
        self.address = address
        self.pattern = pattern
        self.arguments = arguments
        self.trigger = trigger
        self.summary = summary
        self.reply = reply
        self.readsFiles = readsFiles
        self.schedulable = schedulable
        self.personOnly = personOnly
        self.answersOnly = answersOnly
    }

    /// The OSC type tags of its required arguments (OSCQuery's TYPE); `N` when none is needed.
    public var typeTags: String {
        let tags = arguments.filter { !$0.optional }.compactMap(\.tags.first)
        return tags.isEmpty ? "N" : String(tags)
    }

    /// Whether a controller's button may trigger it (a MIDI foot switch, an HRV threshold, a
    /// layout's button): it takes a press, it is not a person's decision, and it does more than
    /// answer (a reply would go to no one who asked).
    public var pressable: Bool { trigger != .arguments && !personOnly && !answersOnly }

    /// Refuses a call through `door` that only a person may make.
    public func check(door: ChangeDoor) throws(ControlError) {
        guard personOnly, door != .person else { return }
        throw ControlError(address, "only a person may do this (never \(door))")
    }
}

/// A list of names that exist now (the presets in the store, the sessions in the session
/// directories): what an argument taking one of them may be offered from (the control page's
/// menus). The address space reads it when asked, from whoever provides it (`AddressSpace.provide`).
public struct Catalog: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

/// Something entrain sends without being asked (meters, beats, a session's progress): its
/// addresses with their type tags (OSCQuery's read-only nodes) and, for the schema, what it
/// carries and when.
public struct PublishedDescriptor: Sendable {
    /// The schema's address cell (Markdown), e.g. "every parameter address".
    public let label: String
    /// The concrete addresses and their type tags; empty for a row that names none.
    public let addresses: [(path: String, type: String)]
    public let arguments: String
    public let when: String

    public init(_ label: String, addresses: [(path: String, type: String)], arguments: String, when: String) {
        self.label = label
        self.addresses = addresses
        self.arguments = arguments
        self.when = when
    }

    /// One address with its tags, listed as itself.
    public init(_ path: String, type: String, arguments: String, when: String) {
        self.init("`\(path)`", addresses: [(path, type)], arguments: arguments, when: when)
    }
}
