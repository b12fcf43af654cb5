import EntrainDSP
import Foundation
import Kessho

/// A drum hit's sound from the state, as the web's drum synth builds it per trigger: the voice's
/// keys (or its A↔B morph drawn per hit when the morph is in sample-and-hold mode, or moved by
/// the lane's evolve), then the
/// per-hit variation (triangular, from the engine stream) and the strike distance.
enum KesshoDrumHit {
    /// `seconds`: the hit's time on the engine's clock, where the morph animation stands.
    static func sound(_ voice: DrumSound.Voice, velocity: Double, state s: KesshoState, sliders: KesshoSliders,
                      engine: () -> Double, side: inout Mulberry32, seed: UInt64, morphShift: Double = 0, seconds: Double = 0) -> DrumSound {
        let v = voice.name
        var overrides: [String: KesshoValue] = [:]
        if let r = sliders.range("drum\(v)Morph", in: .sampleHold), let (a, b) = presets(voice: v, state: s) {
            overrides = KesshoDrumPresets.morph(a, b, r.min + side.next() * (r.max - r.min))
        } else if s.bool("drum\(v)MorphAuto") == true, let (a, b) = presets(voice: v, state: s) {
            let position = animatedMorph(mode: s.string("drum\(v)MorphMode") ?? "pingpong",
                                         cyclesPerMinute: s.number("drum\(v)MorphSpeed") ?? 4, seconds: seconds)
            overrides = KesshoDrumPresets.morph(a, b, min(max(position + morphShift, 0), 1))
        } else if morphShift != 0, let (a, b) = presets(voice: v, state: s) {
            // Evolve moved this step's morph: the voice from its presets at the moved position.
            overrides = KesshoDrumPresets.morph(a, b, min(max((s.number("drum\(v)Morph") ?? 0) + morphShift, 0), 1))
        }
        func number(_ field: String) -> Double {
            let key = "drum\(v)\(field)"
            if case .number(let x)? = overrides[key] { return x }
            return s.number(key) ?? KesshoParameters.parameter(key)?.defaultValue.number ?? 0
        }
        func text(_ field: String) -> String {
            let key = "drum\(v)\(field)"
            if case .string(let x)? = overrides[key] { return x }
            return s.string(key) ?? KesshoParameters.parameter(key)?.defaultValue.string ?? ""
        }
        var d = DrumSound()
        d.voice = voice
        d.velocity = velocity
        d.seed = seed
        d.delaySend = number("DelaySend")
        d.level = number("Level")
        d.attack = number("Attack")
        d.decay = number("Decay")
        var bright = 1.0
        switch voice {
        case .sub:
            d.frequency = number("Freq"); d.tone = number("Tone"); d.shape = number("Shape")
            d.pitchEnv = number("PitchEnv"); d.pitchDecay = number("PitchDecay"); d.drive = number("Drive")
            d.subOctave = number("Sub")
        case .kick:
            d.frequency = number("Freq"); d.pitchEnv = number("PitchEnv"); d.pitchDecay = number("PitchDecay")
            d.click = number("Click"); d.body = number("Body"); d.punch = number("Punch"); d.tail = number("Tail")
            d.tone = number("Tone")
        case .click:
            d.filter = number("Filter"); d.tone = number("Tone"); d.resonance = number("Resonance")
            d.pitch = number("Pitch"); d.pitchEnv = number("PitchEnv")
            d.mode = ["impulse": 0, "noise": 1, "tonal": 2, "granular": 3][text("Mode")] ?? 0
            d.grainCount = Int(saturating: number("GrainCount")); d.grainSpread = number("GrainSpread")
            d.exciterColor = number("ExciterColor")
        case .beepHi:
            d.frequency = number("Freq"); d.tone = number("Tone"); d.inharmonic = number("Inharmonic")
            d.partials = Int(saturating: number("Partials")); d.shimmer = number("Shimmer")
            d.shimmerRate = number("ShimmerRate"); d.brightness = number("Brightness")
            d.modRatio = number("ModRatio") + number("ModRatioFine")
            d.modEnvDecay = number("ModEnvDecay"); d.modEnvEnd = number("ModEnvEnd")
            d.feedback = number("Feedback"); d.modPhase = number("ModPhase")
            d.noiseInMod = number("NoiseInMod"); d.noiseDecay = number("NoiseDecay")
        case .beepLo:
            d.frequency = number("Freq"); d.tone = number("Tone"); d.pitchEnv = number("PitchEnv")
            d.pitchDecay = number("PitchDecay"); d.body = number("Body"); d.pluck = number("Pluck")
            d.pluckDamp = number("PluckDamp"); d.modal = number("Modal"); d.modalQ = number("ModalQ")
            d.modalInharmonic = number("ModalInharmonic"); d.modalSpread = number("ModalSpread")
            d.modalCut = number("ModalCut"); d.oscGain = number("OscGain"); d.modalGain = number("ModalGain")
        case .noise:
            d.frequency = number("FilterFreq"); d.filterQ = number("FilterQ")
            d.filterType = ["lowpass": 0, "bandpass": 1, "highpass": 2][text("FilterType")] ?? 2
            d.filterEnv = number("FilterEnv"); d.filterEnvDecay = number("FilterEnvDecay")
            d.colorLFO = number("ColorLFO"); d.formant = number("Formant")
            d.ratchetCount = Int(saturating: number("RatchetCount")); d.ratchetTime = number("RatchetTime")
            d.breath = number("Breath"); d.density = number("Density"); d.particleSize = number("ParticleSize")
            d.particleRandom = number("ParticleRandom"); d.particleRandomRate = number("ParticleRandomRate")
        case .membrane:
            d.frequency = number("Size"); d.tension = number("Tension"); d.damping = number("Damping")
            d.excBright = number("ExcBright"); d.excDuration = number("ExcDur")
            d.exciter = ["impulse": 0, "noise": 1, "stick": 2, "brush": 3, "mallet": 4][text("Exciter")] ?? 0
            d.material = ["skin": 0, "metal": 1, "wood": 2, "glass": 3, "plastic": 4][text("Material")] ?? 0
            d.nonlinearity = number("Nonlin"); d.wireMix = number("WireMix"); d.wireTone = number("WireTone")
            d.wireDecay = number("WireDecay"); d.body = number("Body"); d.ring = number("Ring")
            d.overtones = Int(saturating: number("Overtones")); d.pitchEnv = number("PitchEnv")
            d.pitchDecay = number("PitchDecay")
            d.excPos = number("ExcPos"); d.wireDensity = number("WireDensity")
        }
        // Variation: a triangular draw (two from the engine stream) scales level, decay, pitch,
        // brightness and attack.
        let x = number("Variation")
        var pitch = 1.0
        if x >= 0.001 {
            let o = (engine() + engine() - 1) * x
            d.level *= 1 + 0.6 * o
            d.decay *= 1 + 0.4 * o
            pitch *= 1 + 0.02 * o
            bright *= 1 + 0.8 * o
            d.attack /= 1 + 0.6 * o
        }
        // Strike distance: centre (t < 0) is louder, longer and darker; the edge the reverse.
        let t = 2 * number("Distance") - 1
        if abs(t) >= 0.01 {
            d.level *= 1 - 0.4 * t
            d.decay *= t >= 0 ? 1 - 0.8 * t : 1 + 7 * abs(t)
            bright *= t >= 0 ? 1 + 1.1 * log2(1 + t) : 1 / (1 + 3.5 * log2(1 + abs(t)))
            d.attack *= t >= 0 ? 1 - 0.55 * t : 1 + abs(t)
            d.click *= 1 + 0.85 * t
            d.body *= t >= 0 ? 1 - 0.6 * t : 1 + 1.2 * abs(t)
        }
        d.frequency *= pitch
        d.pitch *= pitch
        switch voice {
        case .sub, .kick: d.tone = min(d.tone * bright, 1)
        case .click: d.filter *= bright
        case .beepHi: d.brightness = min(d.brightness * bright, 2)
        case .beepLo: d.tone = min(d.tone * bright, 1)
        case .noise: d.frequency *= bright
        case .membrane: d.excBright = min(d.excBright * bright, 1.5)
        }
        d.decay = max(d.decay, 1)
        d.attack = max(d.attack, 0)
        return d
    }

    /// The web's drum morph animation (`drum{Voice}MorphAuto`): `MorphSpeed` cycles a minute, a
    /// sawtooth from 0 to 1 (`linear`) or a triangle 0 → 1 → 0 (`pingpong`); `random` stays at 0,
    /// as the web's does (its phase-reset test compares the phase with itself). Timed by the
    /// engine's clock, so a render and a live run hear the same morph on the same hit.
    static func animatedMorph(mode: String, cyclesPerMinute: Double, seconds: Double) -> Double {
        let turns = max(0, seconds) * max(0, cyclesPerMinute) / 60
        let phase = turns - turns.rounded(.down)
        switch mode {
        case "linear": return phase
        case "pingpong": return phase < 0.5 ? 2 * phase : 2 - 2 * phase
        default: return 0
        }
    }

    /// The web UI writes a voice's morph into the state when its morph or presets change: the
    /// keys of presets A and B interpolated at the morph position (when both are known).
    static func morphWrite(voice v: String, state s: KesshoState) -> [(String, KesshoValue)] {
        guard let (a, b) = presets(voice: v, state: s) else { return [] }
        return KesshoDrumPresets.morph(a, b, s.number("drum\(v)Morph") ?? 0).sorted { $0.key < $1.key }
            .filter { KesshoParameters.parameter($0.key) != nil }.map { ($0.key, $0.value) }
    }

    /// The voice's morph presets A and B, when both are known by name.
    static func presets(voice v: String, state s: KesshoState) -> (KesshoDrumPresets.Preset, KesshoDrumPresets.Preset)? {
        guard let a = KesshoDrumPresets.named(s.string("drum\(v)PresetA") ?? "", voice: v),
              let b = KesshoDrumPresets.named(s.string("drum\(v)PresetB") ?? "", voice: v) else { return nil }
        return (a, b)
    }
}
