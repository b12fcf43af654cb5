import EntrainAddressSpace
import EntrainCore

/// SBaGen's remaining voices (spinning noise, the struck bell) and the cue bells, one table.
public enum SoundsParameters {
    public enum Field: Int, CaseIterable {
        case spinLevel = 0, spinNoise, spinWidth, spinRate
        case bellFrequency, bellLevel, bellStrike
        case cueStage, cueEnd, cueFrequency, cueStrike
    }

    /// What `/cue/strike` rings (the control side sends it; a person may too).
    public enum Cue: Int, CaseIterable { case none = 0, stage, end }

    static var count: Int { 11 }

    public static let specs: [ControlDescriptor] = [
        ControlDescriptor("/spin/level", .continuous(range: 0...1, defaultValue: 0, curve: .linear), glide: 0.05,
                      "spinning noise (SBaGen spin:): level (0 = off; 1 = RMS -12 dBFS, as the noise bed)"),
        ControlDescriptor("/spin/noise", .choice(options: ["white", "pink", "brown"], defaultIndex: 1), glide: 0.1,
                      "spinning noise: colour (SBaGen wspin:, spin:, bspin:)"),
        ControlDescriptor("/spin/width", .continuous(range: 0...1, defaultValue: 0.5, curve: .linear), glide: 0.05,
                      "spinning noise: how far it pans from the centre (1 = fully to each side)"),
        ControlDescriptor("/spin/rate", .continuous(range: -100...100, defaultValue: 1, curve: .linear), unit: "Hz", glide: 0.05,
                      "spinning noise: turns per second (the sign picks the direction)"),
        ControlDescriptor("/bell/frequency", .continuous(range: 20...8000, defaultValue: 1000, curve: .logarithmic), unit: "Hz",
                      "struck bell (SBaGen bell+F/A): its pitch"),
        ControlDescriptor("/bell/level", .continuous(range: 0...1, defaultValue: 0.5, curve: .linear),
                      "struck bell: level of each strike (it then fades by 15 dB a second)"),
        ControlDescriptor("/bell/strike", .toggle(defaultValue: false),
                      "struck bell: rings once each time this turns on"),
        ControlDescriptor("/cue/stage", .continuous(range: 0...1, defaultValue: 0, curve: .linear),
                      "cue bell at each stage change of a session (0 = off)"),
        ControlDescriptor("/cue/end", .continuous(range: 0...1, defaultValue: 0, curve: .linear),
                      "cue bell when the output fades out at the end (session end, timer, stop); it rings on through the fade (0 = off)"),
        ControlDescriptor("/cue/frequency", .continuous(range: 100...4000, defaultValue: 528, curve: .logarithmic), unit: "Hz",
                      "cue bell: its pitch"),
        ControlDescriptor("/cue/strike", .choice(options: ["none", "stage", "end"], defaultIndex: 0),
                      "cue bell: rings the stage or end cue when set to it (sessions send it at stage changes)"),
    ]
}
