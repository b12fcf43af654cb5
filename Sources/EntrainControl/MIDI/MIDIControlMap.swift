import EntrainAddressSpace

/// Control changes bound to addresses: `1:7=/entrain/volume,10:20=/led/level` (MIDI channel
/// 1–16, controller 0–127, any settable ranged number, toggle or choice that `MappingTargets`
/// allows). The controller's 0…127 moves the address like a fader over its range.
public struct MIDIControlMap: Sendable, Equatable, CustomStringConvertible {
    public struct Key: Hashable, Sendable, Comparable {
        /// 0…15.
        public var channel: Int
        public var controller: Int
        public static func < (a: Key, b: Key) -> Bool { (a.channel, a.controller) < (b.channel, b.controller) }
    }

    public var bindings: [Key: String] = [:]

    public init() {}

    public init(parsing text: String) throws(ControlError) {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if items == ["none"] { return }
        for item in items {
            let sides = item.split(separator: "=", maxSplits: 1).map(String.init)
            let numbers = sides.first?.split(separator: ":").compactMap { Int($0) } ?? []
            guard sides.count == 2, numbers.count == 2, (1...16).contains(numbers[0]), (0...127).contains(numbers[1]),
                  sides[1].hasPrefix("/") else {
                throw ControlError(MIDIFamily.prefix + "map", "'\(item)' is not CHANNEL:CONTROLLER=/address (channel 1-16, controller 0-127)")
            }
            bindings[Key(channel: numbers[0] - 1, controller: numbers[1])] = sides[1]
        }
    }

    public var description: String {
        bindings.isEmpty ? "none" : bindings.keys.sorted().map { "\($0.channel + 1):\($0.controller)=\(bindings[$0]!)" }.joined(separator: ",")
    }
}
