import Foundation

/// Drum voice presets for the per-voice A↔B morph (`drumKickPresetA`, …): each a name, a voice
/// and the voice's keys. The web compiles its own library in; these are ours, under the web's
/// default names so a state that names them morphs. Files in the web's DrumSynth format (an array
/// of `{name, voice, params}`) load with `presets(json:)`.
public enum KesshoDrumPresets {
    public struct Preset: Sendable, Equatable {
        public let name: String
        public let voice: String
        public let params: [String: KesshoValue]

        public init(name: String, voice: String, params: [String: KesshoValue]) {
            self.name = name
            self.voice = voice
            self.params = params
        }
    }

    static func make(_ name: String, _ voice: String, _ params: [String: Double], text: [String: String] = [:]) -> Preset {
        var all = params.mapValues { KesshoValue.number($0) }
        for (k, v) in text { all[k] = .string(v) }
        return Preset(name: name, voice: voice, params: all)
    }

    /// Ours: the web's seven default names (re-voiced by us) and a few more per voice.
    public static let library: [Preset] = [
        make("Classic Sub", "sub", ["drumSubFreq": 48, "drumSubDecay": 260, "drumSubLevel": 0.8, "drumSubTone": 0.1,
                                    "drumSubShape": 0, "drumSubPitchEnv": 5, "drumSubPitchDecay": 40, "drumSubDrive": 0.1]),
        make("Deep Swell", "sub", ["drumSubFreq": 36, "drumSubDecay": 1400, "drumSubLevel": 0.7, "drumSubTone": 0,
                                   "drumSubShape": 0, "drumSubPitchEnv": 0, "drumSubPitchDecay": 80, "drumSubDrive": 0,
                                   "drumSubSub": 0.3, "drumSubAttack": 60]),
        make("Ikeda Kick", "kick", ["drumKickFreq": 52, "drumKickPitchEnv": 26, "drumKickPitchDecay": 28, "drumKickDecay": 220,
                                    "drumKickLevel": 0.7, "drumKickClick": 0.35, "drumKickBody": 0.3, "drumKickPunch": 0.75,
                                    "drumKickTail": 0, "drumKickTone": 0]),
        make("Soft Thud", "kick", ["drumKickFreq": 62, "drumKickPitchEnv": 8, "drumKickPitchDecay": 25, "drumKickDecay": 110,
                                   "drumKickLevel": 0.45, "drumKickClick": 0, "drumKickBody": 0.6, "drumKickPunch": 0.15,
                                   "drumKickTail": 0, "drumKickTone": 0]),
        make("Far Boom", "kick", ["drumKickFreq": 44, "drumKickPitchEnv": 16, "drumKickPitchDecay": 90, "drumKickDecay": 1300,
                                  "drumKickLevel": 0.7, "drumKickClick": 0.05, "drumKickBody": 0.9, "drumKickPunch": 0.2,
                                  "drumKickTail": 0.6, "drumKickTone": 0.15]),
        make("Data Point", "click", ["drumClickDecay": 4, "drumClickFilter": 5200, "drumClickTone": 0.25, "drumClickLevel": 0.55,
                                     "drumClickResonance": 0.35, "drumClickPitch": 2000, "drumClickPitchEnv": 0],
             text: ["drumClickMode": "impulse"]),
        make("Glass Tick", "click", ["drumClickDecay": 30, "drumClickFilter": 9000, "drumClickTone": 0.6, "drumClickLevel": 0.4,
                                     "drumClickResonance": 0.7, "drumClickPitch": 3400, "drumClickPitchEnv": 12],
             text: ["drumClickMode": "tonal"]),
        make("Data Ping", "beepHi", ["drumBeepHiFreq": 4200, "drumBeepHiAttack": 1, "drumBeepHiDecay": 70, "drumBeepHiLevel": 0.45,
                                     "drumBeepHiTone": 0.15, "drumBeepHiInharmonic": 0, "drumBeepHiPartials": 1,
                                     "drumBeepHiBrightness": 0.5, "drumBeepHiModRatio": 2]),
        make("Wind Chime", "beepHi", ["drumBeepHiFreq": 2600, "drumBeepHiAttack": 2, "drumBeepHiDecay": 900, "drumBeepHiLevel": 0.35,
                                      "drumBeepHiTone": 0.3, "drumBeepHiInharmonic": 0.45, "drumBeepHiPartials": 4,
                                      "drumBeepHiShimmer": 0.4, "drumBeepHiShimmerRate": 5, "drumBeepHiBrightness": 0.6,
                                      "drumBeepHiModRatio": 3.5, "drumBeepHiModEnvDecay": 0.6, "drumBeepHiModEnvEnd": 0.1]),
        make("Blip", "beepLo", ["drumBeepLoFreq": 420, "drumBeepLoAttack": 2, "drumBeepLoDecay": 90, "drumBeepLoLevel": 0.5,
                                "drumBeepLoTone": 0.1, "drumBeepLoPitchEnv": 0, "drumBeepLoBody": 0.3]),
        make("Wood Drop", "beepLo", ["drumBeepLoFreq": 310, "drumBeepLoAttack": 1, "drumBeepLoDecay": 380, "drumBeepLoLevel": 0.55,
                                     "drumBeepLoTone": 0, "drumBeepLoPitchEnv": -7, "drumBeepLoPitchDecay": 30, "drumBeepLoBody": 0.5,
                                     "drumBeepLoModal": 0.7, "drumBeepLoModalQ": 24, "drumBeepLoModalInharmonic": 0.6]),
        make("Hi-Hat", "noise", ["drumNoiseFilterFreq": 8500, "drumNoiseFilterQ": 1, "drumNoiseDecay": 35, "drumNoiseLevel": 0.35,
                                 "drumNoiseAttack": 0], text: ["drumNoiseFilterType": "highpass"]),
        make("Soft Clap", "noise", ["drumNoiseFilterFreq": 1800, "drumNoiseFilterQ": 1.5, "drumNoiseDecay": 160, "drumNoiseLevel": 0.4,
                                    "drumNoiseRatchetCount": 3, "drumNoiseRatchetTime": 12], text: ["drumNoiseFilterType": "bandpass"]),
        make("Snare Classic", "membrane", ["drumMembraneSize": 190, "drumMembraneTension": 0.5, "drumMembraneDamping": 0.35,
                                           "drumMembraneWireMix": 0.5, "drumMembraneWireDecay": 0.5, "drumMembraneBody": 0.5,
                                           "drumMembraneRing": 0.2, "drumMembraneOvertones": 4, "drumMembranePitchEnv": 3,
                                           "drumMembraneDecay": 240, "drumMembraneLevel": 0.6],
             text: ["drumMembraneExciter": "noise", "drumMembraneMaterial": "skin"]),
        make("Frame Drum", "membrane", ["drumMembraneSize": 110, "drumMembraneTension": 0.35, "drumMembraneDamping": 0.2,
                                        "drumMembraneWireMix": 0, "drumMembraneBody": 0.8, "drumMembraneRing": 0.5,
                                        "drumMembraneOvertones": 6, "drumMembranePitchEnv": 2, "drumMembraneDecay": 700,
                                        "drumMembraneLevel": 0.6], text: ["drumMembraneExciter": "mallet", "drumMembraneMaterial": "wood"]),
    ]

    public static func named(_ name: String, voice: String) -> Preset? {
        library.first { $0.name == name && $0.voice.lowercased() == voice.lowercased() }
    }

    /// Web format: `[{name, voice, tags?, params: {drum…: value}}]`.
    public static func presets(json root: KesshoJSONValue) throws -> [Preset] {
        guard case .array(let items) = root else { throw KesshoLeadPresetError(message: "a drum preset file is a JSON array") }
        return try items.enumerated().map { i, item in
            guard case .string(let name)? = item["name"], case .string(let voice)? = item["voice"],
                  case .object(let members)? = item["params"] else {
                throw KesshoLeadPresetError(message: "drum preset \(i + 1) needs \"name\", \"voice\" and \"params\"")
            }
            var params: [String: KesshoValue] = [:]
            for m in members {
                switch m.value {
                case .number(let x): params[m.key] = .number(x)
                case .string(let s): params[m.key] = .string(s)
                case .bool(let b): params[m.key] = .bool(b)
                default: continue
                }
            }
            return Preset(name: name, voice: voice, params: params)
        }
    }

    /// The web's per-voice morph: smoothstep of t, then exponential interpolation for keys
    /// containing Freq, Decay, Attack, Filter, Rate or Speed when both ends are positive, linear
    /// otherwise; text values switch at 0.5. Keys only one side has keep that side's value.
    public static func morph(_ a: Preset, _ b: Preset, _ t: Double) -> [String: KesshoValue] {
        let x = min(max(t, 0), 1), s = x * x * (3 - 2 * x)
        var out = a.params
        for (key, bv) in b.params {
            guard let av = a.params[key] else { out[key] = bv; continue }
            switch (av, bv) {
            case (.number(let p), .number(let q)):
                let exponential = ["Freq", "Decay", "Attack", "Filter", "Rate", "Speed"].contains { key.contains($0) }
                out[key] = .number(exponential && p > 0 && q > 0 ? p * pow(q / p, s) : p + (q - p) * s)
            default:
                out[key] = s < 0.5 ? av : bv
            }
        }
        return out
    }
}
