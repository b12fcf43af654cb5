import EntrainAddressSpace

/// Program changes bound to presets: `1:0=calm,1:5=deep focus` (MIDI channel 1–16, program
/// 0–127, a preset's name). The program change loads the preset as `/preset/load` does.
public struct MIDIProgramMap: Sendable, Equatable, CustomStringConvertible {
    /// The channel and program (as a controller map's key: channel 0…15, then the number).
    public var bindings: [MIDIControlMap.Key: String] = [:]

    public init() {}

    public init(parsing text: String) throws(ControlError) {
        for (key, preset) in try MIDIBindingList.parse(text, at: MIDIFamily.prefix + "programs", notes: false,
                                                       shape: "CHANNEL:PROGRAM=preset (channel 1-16, program 0-127)") {
            bindings[key] = preset
        }
    }

    public var description: String { MIDIBindingList.text(bindings) { $0 } }
}
