import EntrainAddressSpace

/// Controllers and notes bound to addresses: `1:7=/entrain/volume,10:note36=/panic,10:note38=/haptic/pattern
/// heartbeat` (MIDI channel 1–16, controller or note 0–127, any target `MappingTargets` allows). A
/// controller's 0…127 moves a value like a fader over its range; a note's velocity sets it. Bound
/// to a command, either is a button; a command that takes a name is pressed with the name the
/// binding gives.
public struct MIDIControlMap: Sendable, Equatable, CustomStringConvertible {
    public struct Key: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// 0…15.
        public var channel: Int
        /// The controller, note or program, 0…127.
        public var number: Int
        public var isNote = false

        public init(channel: Int, number: Int, isNote: Bool = false) {
            self.channel = channel
            self.number = number
            self.isNote = isNote
        }

        /// `1:7` (a controller or a program), `10:note36` (a note, where `notes` allows).
        init?(parsing text: String, notes: Bool) {
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let channel = Int(parts[0]), (1...16).contains(channel) else { return nil }
            let note = notes && parts[1].hasPrefix("note")
            guard let number = Int(note ? String(parts[1].dropFirst(4)) : parts[1]), (0...127).contains(number) else { return nil }
            self.init(channel: channel - 1, number: number, isNote: note)
        }

        public var description: String { "\(channel + 1):\(isNote ? "note" : "")\(number)" }
        public static func < (a: Key, b: Key) -> Bool { (a.channel, a.isNote ? 1 : 0, a.number) < (b.channel, b.isNote ? 1 : 0, b.number) }
    }

    /// What a binding drives: an address, and for a command that takes a name, that name.
    public struct Target: Hashable, Sendable, CustomStringConvertible {
        public var address: String
        public var argument: String?

        /// `/panic`, `/haptic/pattern heartbeat` (the name is all after the first space).
        public init(parsing text: String) {
            let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).map(String.init)
            address = parts.first ?? ""
            argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        }

        public var description: String { argument.map { "\(address) \($0)" } ?? address }
    }

    public var bindings: [Key: Target] = [:]

    public init() {}

    public init(parsing text: String) throws(ControlError) {
        for (key, target) in try MIDIBindingList.parse(text, at: MIDIFamily.prefix + "map", notes: true,
                                                        shape: "CHANNEL:CONTROLLER=/address or CHANNEL:noteNOTE=/address (channel 1-16, controller or note 0-127)") {
            let bound = Target(parsing: target)
            guard bound.address.hasPrefix("/") else {
                throw ControlError(MIDIFamily.prefix + "map", "'\(key)=\(target)' does not name an /address")
            }
            bindings[key] = bound
        }
    }

    public var description: String { MIDIBindingList.text(bindings, \.description) }
}
