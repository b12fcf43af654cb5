import EntrainAddressSpace

/// Program changes bound to presets: `1:0=calm,1:5=deep focus` (MIDI channel 1–16, program
/// 0–127, a preset's name). The program change loads the preset as `/preset/load` does.
public struct MIDIProgramMap: Sendable, Equatable, CustomStringConvertible {
    /// The channel and program (as a controller map's key: channel 0…15, then the number).
    public var bindings: [MIDIControlMap.Key: String] = [:]

    public init() {}

    public init(parsing text: String) throws(ControlError) {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if items == ["none"] { return }
        for item in items {
            let sides = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = sides.first?.split(separator: ":").compactMap { Int($0) } ?? []
            guard sides.count == 2, numbers.count == 2, (1...16).contains(numbers[0]), (0...127).contains(numbers[1]), !sides[1].isEmpty else {
                throw ControlError(MIDIFamily.prefix + "programs", "'\(item)' is not CHANNEL:PROGRAM=preset (channel 1-16, program 0-127)")
            }
            bindings[MIDIControlMap.Key(channel: numbers[0] - 1, controller: numbers[1])] = sides[1]
        }
    }

    public var description: String {
        bindings.isEmpty ? "none" : bindings.keys.sorted().map { "\($0.channel + 1):\($0.controller)=\(bindings[$0]!)" }.joined(separator: ",")
    }
}
