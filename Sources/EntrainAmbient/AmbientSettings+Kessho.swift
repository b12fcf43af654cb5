import EntrainDSP
import Kessho

extension AmbientSettings {
    /// What the Kessho state's rendered keys (mixer, pad, reverb, granular, ocean) mean for the
    /// sound. Missing or mistyped keys take their defaults, as the web's loader ensures.
    /// Keys in sample-and-hold mode hand their dual range to the engine, which draws per grain
    /// (`grainSize`) or per wave (the ocean's four).
    public init(kessho s: KesshoState, sliders: KesshoSliders = KesshoSliders()) {
        self.init()
        func number(_ key: String) -> Double {
            s.number(key) ?? KesshoParameters.parameter(key)?.defaultValue.number ?? 0
        }
        func flag(_ key: String) -> Bool { s.bool(key) ?? KesshoParameters.parameter(key)?.defaultValue.bool ?? false }
        func text(_ key: String) -> String { s.string(key) ?? KesshoParameters.parameter(key)?.defaultValue.string ?? "" }

        timbre = PadVoice.Timbre(oscBrightness: Int(saturating: number("oscBrightness")), detuneCents: number("detune"),
                                 warmth: number("warmth"), presence: number("presence"), hardness: number("hardness"),
                                 airNoise: number("airNoise"))
        envelope = PadEnvelope(attack: number("synthAttack"), decay: number("synthDecay"), sustain: number("synthSustain"),
                               release: number("synthRelease"))
        filterKind = Self.filterKind(text("filterType"))
        cutoffLow = number("filterCutoffMin")
        cutoffHigh = number("filterCutoffMax")
        filterQ = number("filterQ")
        filterModSpeed = number("filterModSpeed")
        voiceMask = min(max(Int(saturating: number("synthVoiceMask"), rounding: .towardZero), 1), 63)
        octave = min(max(number("synthOctave"), -2), 2)

        levels.masterVolume = number("masterVolume")
        levels.synthLevel = number("synthLevel")
        levels.synthReverbSend = number("synthReverbSend")
        levels.granularEnabled = flag("granularEnabled")
        levels.granularLevel = number("granularLevel")
        levels.granularReverbSend = number("granularReverbSend")
        levels.wetHPF = number("wetHPF")
        levels.wetLPF = number("wetLPF")
        levels.reverbEnabled = flag("reverbEnabled")
        levels.reverbLevel = number("reverbLevel")
        levels.oceanWaveSynthEnabled = flag("oceanWaveSynthEnabled")
        levels.oceanWaveSynthLevel = number("oceanWaveSynthLevel")
        levels.oceanFilterType = Self.filterKind(text("oceanFilterType"))
        levels.oceanFilterCutoff = number("oceanFilterCutoff")
        levels.oceanFilterResonance = number("oceanFilterResonance")

        granular.grainProbability = number("grainProbability")
        granular.grainSizeMilliseconds = number("grainSize")
        granular.density = number("density")
        granular.sprayMilliseconds = number("spray")
        granular.jitterMilliseconds = number("jitter")
        granular.pitchMode = text("grainPitchMode") == "random" ? .random : .harmonic
        granular.pitchSpread = number("pitchSpread")
        granular.stereoSpread = number("stereoSpread")
        granular.feedback = number("feedback")

        reverb.type = Self.roomType(text("reverbType"))
        reverb.decay = number("reverbDecay")
        reverb.size = number("reverbSize")
        reverb.diffusion = number("reverbDiffusion")
        reverb.modulation = number("reverbModulation")
        reverb.predelayMilliseconds = number("predelay")
        reverb.damping = number("damping")
        reverb.width = number("width")

        ocean = OceanWaves.Settings(intensity: levels.oceanWaveSynthLevel, duration: number("oceanDuration"),
                                    interval: number("oceanInterval"), foam: number("oceanFoam"), depth: number("oceanDepth"))

        let leadOn = flag("leadEnabled")
        lead.gain = leadOn ? number("leadLevel") : 0
        lead.reverbSend = number("leadReverbSend")
        lead.delayReverbSend = number("leadDelayReverbSend")
        lead.delayMilliseconds = number("leadDelayTime")
        lead.delayFeedback = number("leadDelayFeedback")
        lead.delayMix = number("leadDelayMix")

        let drumsOn = flag("drumEnabled")
        drums.level = drumsOn ? number("drumLevel") : 0
        drums.reverbSend = drumsOn ? number("drumReverbSend") : 0
        drums.delayMix = flag("drumDelayEnabled") ? number("drumDelayMix") : 0
        let beat = 60_000 / min(max(number("drumEuclidBaseBPM"), 1), 1000)
        drums.delayLeftMilliseconds = Self.noteBeats(text("drumDelayNoteL")) * beat
        drums.delayRightMilliseconds = Self.noteBeats(text("drumDelayNoteR")) * beat
        drums.delayFeedback = number("drumDelayFeedback")
        drums.delayFilter = 500 * FastMath.exp2(5 * min(max(number("drumDelayFilter"), 0), 1))

        if let r = sliders.range("grainSize", in: .sampleHold) {
            granular.grainSizeMinMilliseconds = min(r.min, r.max)
            granular.grainSizeMaxMilliseconds = max(r.min, r.max)
        }
        if let r = sliders.range("oceanDuration", in: .sampleHold) { (ocean.durationMin, ocean.durationMax) = (r.min, r.max) }
        if let r = sliders.range("oceanInterval", in: .sampleHold) { (ocean.intervalMin, ocean.intervalMax) = (r.min, r.max) }
        if let r = sliders.range("oceanFoam", in: .sampleHold) { (ocean.foamMin, ocean.foamMax) = (r.min, r.max) }
        if let r = sliders.range("oceanDepth", in: .sampleHold) { (ocean.depthMin, ocean.depthMax) = (r.min, r.max) }
    }

    /// A drum delay note division in beats (unknown: 1/8).
    static func noteBeats(_ name: String) -> Double {
        let table: [String: Double] = ["1/1": 4, "1/2": 2, "1/2d": 3, "1/4": 1, "1/4d": 1.5, "1/4t": 2.0 / 3, "1/8": 0.5,
                                       "1/8d": 0.75, "1/8t": 1.0 / 3, "1/16": 0.25, "1/16d": 0.375, "1/16t": 1.0 / 6,
                                       "1/32": 0.125]
        return table[name] ?? 0.5
    }

    /// The web's biquad type names; anything else is lowpass, the web's default.
    static func filterKind(_ name: String) -> WebAudioBiquad.Kind {
        switch name {
        case "highpass": .highpass
        case "bandpass": .bandpass
        case "notch": .notch
        default: .lowpass
        }
    }

    /// Unknown types are hall, as in the web's reverb worklet.
    static func roomType(_ name: String) -> FDNReverb.RoomType {
        switch name {
        case "plate": .plate
        case "cathedral": .cathedral
        case "darkHall": .darkHall
        default: .hall
        }
    }

    /// `reverbQuality`: a structural choice, fixed when the engine is prepared.
    public static func quality(_ name: String?) -> FDNReverb.Quality {
        switch name {
        case "ultra": .ultra
        case "lite": .lite
        default: .balanced
        }
    }
}
