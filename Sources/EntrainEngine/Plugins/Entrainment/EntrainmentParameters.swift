import EntrainAddressSpace
import EntrainCore

/// The entrainment plugin's parameter table. Voice 1 lives at /entrain/…, voice N at /entrain/voice/N/….
public enum EntrainmentParameters {
    public static var voiceCount: Int { 10 }

    public enum Mode: Int, CaseIterable { case binaural = 0, monaural, isochronic }
    public enum Convention: Int, CaseIterable {
        /// left = carrier, right = carrier + beat (the Brain Waves convention).
        case offset = 0
        /// left = carrier + beat/2, right = carrier − beat/2 (SBaGen and Gnaural).
        case centered
    }

    // Plugin-wide parameters, then `voiceFields` per voice.
    public static var volume: Int { 0 }
    public static var noise: Int { 1 }
    public static var noiseLevel: Int { 2 }
    static var globalCount: Int { 3 }
    public enum VoiceField: Int, CaseIterable {
        case mode = 0, carrier, beat, waveform, level, convention, duty, edge
    }

    /// Parameters per voice (VoiceField.allCases.count, without building an array).
    static var fieldCount: Int { 8 }

    public static func index(voice: Int, _ field: VoiceField) -> Int {
        globalCount + voice * fieldCount + field.rawValue
    }

    public static func prefix(voice: Int) -> String { voice == 0 ? "/entrain" : "/entrain/voice/\(voice + 1)" }

    public static var minimumIsochronicRate: Double { 0.5 }

    public static let specs: [ControlDescriptor] = {
        var specs: [ControlDescriptor] = [
            ControlDescriptor("/entrain/volume", .continuous(range: 0...1, defaultValue: 0.5, curve: .linear),
                          glide: 0.05, "output level of the entrainment signal (linear gain)"),
            ControlDescriptor("/entrain/noise", .choice(options: ["white", "pink", "brown"], defaultIndex: 1),
                          glide: 0.1, "colour of the noise bed"),
            ControlDescriptor("/entrain/noise/level", .continuous(range: 0...1, defaultValue: 0, curve: .linear),
                          glide: 0.05, "noise bed level (1 = RMS -12 dBFS before volume)"),
        ]
        for voice in 0..<voiceCount {
            let p = prefix(voice: voice)
            let which = voice == 0 ? "voice 1 (the main voice)" : "voice \(voice + 1)"
            specs += [
                ControlDescriptor("\(p)/mode", .choice(options: ["binaural", "monaural", "isochronic"], defaultIndex: 0),
                              glide: 0.05, "\(which): how the beat is made"),
                ControlDescriptor("\(p)/carrier", .continuous(range: 20...1500, defaultValue: 200, curve: .logarithmic),
                              unit: "Hz", glide: 0.05, "\(which): carrier (tone) frequency"),
                ControlDescriptor("\(p)/beat", .continuous(range: 0...100, defaultValue: 10, curve: .linear),
                              unit: "Hz", glide: 0.05, "\(which): beat or pulse frequency (isochronic: at least 0.5)"),
                ControlDescriptor("\(p)/waveform", .choice(options: ["sine", "square", "triangle", "saw"], defaultIndex: 0),
                              glide: 0.02, "\(which): carrier waveform (band-limited)"),
                ControlDescriptor("\(p)/level", .continuous(range: 0...1, defaultValue: voice == 0 ? 1 : 0, curve: .linear),
                              glide: 0.05, "\(which): level (0 = off)"),
                ControlDescriptor("\(p)/convention", .choice(options: ["offset", "centered"], defaultIndex: 0),
                              "\(which): offset = L carrier, R carrier+beat; centered = L carrier+beat/2, R carrier-beat/2 (SBaGen)"),
                ControlDescriptor("\(p)/duty", .continuous(range: 0.05...0.95, defaultValue: 0.5, curve: .linear),
                              glide: 0.05, "\(which): isochronic pulse on-time as a fraction of the period"),
                ControlDescriptor("\(p)/edge", .continuous(range: 0.01...0.5, defaultValue: 0.08, curve: .linear),
                              glide: 0.05, "\(which): isochronic rise/fall time as a fraction of the period (raised cosine)"),
            ]
        }
        return specs
    }()

    /// Rules spanning parameters of one voice.
    @Sendable public static func constraints(_ values: [Double]) -> PluginDescriptor.ConstraintViolation? {
        for voice in 0..<voiceCount {
            let p = prefix(voice: voice)
            let mode = Int(values[index(voice: voice, .mode)])
            let beat = values[index(voice: voice, .beat)]
            let carrier = values[index(voice: voice, .carrier)]
            if mode == Mode.isochronic.rawValue && beat < minimumIsochronicRate {
                return .init(address: "\(p)/beat",
                             reason: "isochronic pulses need a rate of at least \(minimumIsochronicRate) Hz (beat is \(beat) Hz)")
            }
            if Int(values[index(voice: voice, .convention)]) == Convention.centered.rawValue && beat / 2 >= carrier {
                return .init(address: "\(p)/beat",
                             reason: "with the centered convention beat/2 (\(beat / 2) Hz) must stay below the carrier (\(carrier) Hz)")
            }
        }
        return nil
    }
}
