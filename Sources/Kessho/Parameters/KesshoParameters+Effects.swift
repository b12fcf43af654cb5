// Generated from the reference's §2 tables by scripts/kessho-gen-params.py; edit there, not here.
// Sections F–G: reverb and granular.

extension KesshoParameters {
    static let effects: [KesshoParameter] = [
        // F. Reverb (FDN worklet)
        .bool("reverbEnabled", default: true, "F", "false → all reverb sends and reverb output set to 0, params not sent"),
        .choice("reverbEngine", ["algorithmic", "convolution"], default: "algorithmic", "F", "only algorithmic implemented (convolution unused)"),
        .choice("reverbType", ["plate", "hall", "cathedral", "darkHall"], default: "cathedral", "F", "preset base values (§4.9); iOS-only names mapped on load"),
        .choice("reverbQuality", ["ultra", "balanced", "lite"], default: "balanced", "F", "lite = 4-line FDN (3+2 allpass stages per channel); balanced = 8-line FDN, 6+4+6 stages per channel; ultra = same FDN, 10+6+10 stages. Treated as a user preference: NOT overwritten when loading presets"),
        .number("reverbDecay", 0, 1, step: 0.01, default: 0.9, "F", "feedback = base + (1−base)·decay·0.9, max 0.995"),
        .number("reverbSize", 0.5, 3, step: 0.1, default: 2, "F", "multiplies FDN delay lengths"),
        .number("reverbDiffusion", 0, 1, step: 0.01, default: 1, "F", "allpass gains (see §4.9)"),
        .number("reverbModulation", 0, 1, step: 0.01, default: 0.4, "F", "scales preset modDepth"),
        .number("predelay", 0, 100, step: 1, default: 60, "F", "ms (integer samples, max 300 ms buffer)"),
        .number("damping", 0, 1, step: 0.01, default: 0.2, "F", "one-pole coefficient inside FDN loop"),
        .number("width", 0, 1, step: 0.01, default: 0.85, "F", "M/S width on reverb output"),
        // G. Granular
        .bool("granularEnabled", default: true, "G", "false → granularDirect/send gains 0 (worklet keeps running)"),
        .number("maxGrains", 0, 128, step: 1, default: 64, "G", "ignored by the live JS worklet (fixed 64-grain pool); the TS copy resizes the pool"),
        .number("grainProbability", 0, 1, step: 0.01, default: 0.8, "G", "per spawn tick probability"),
        .number("grainSize", 5, 800, step: 1, default: 50, "G", "ms; with sampleHold range → random per grain in [min,max]"),
        .number("density", 5, 80, step: 1, default: 25, "G", "spawn ticks per second (samplesPerGrain = floor(sr/density))"),
        .number("spray", 0, 600, step: 5, default: 200, "G", "ms look-back window"),
        .number("jitter", 0, 30, step: 1, default: 10, "G", "ms ± random offset"),
        .choice("grainPitchMode", ["random", "harmonic"], default: "harmonic", "G", "harmonic = interval table; random = continuous ± pitchSpread"),
        .number("pitchSpread", 0, 12, step: 1, default: 3, "G", "semitones (harmonic: how many table entries are eligible)"),
        .number("stereoSpread", 0, 1, step: 0.01, default: 0.6, "G", "random equal-power pan width"),
        .number("feedback", 0, 0.35, step: 0.01, default: 0.1, "G", "tanh(wet·feedback) written back into buffer; engine clamps ≤0.35"),
        .number("wetHPF", 200, 3000, step: 50, default: 500, "G", "Hz, BiquadFilter highpass after worklet"),
        .number("wetLPF", 3000, 12000, step: 200, default: 8000, "G", "Hz, BiquadFilter lowpass after HPF"),
    ]
}
