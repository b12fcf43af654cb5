// Generated from the reference's §2 tables by scripts/kessho-gen-params.py; edit there, not here.
// Sections R–S: ocean and random walk.

extension KesshoParameters {
    static let ocean: [KesshoParameter] = [
        // R. Ocean
        .bool("oceanSampleEnabled", default: false, "R", "looped beach recording on/off"),
        .number("oceanSampleLevel", 0, 1, step: 0.01, default: 0, "R", "sample gain"),
        .bool("oceanWaveSynthEnabled", default: false, "R", "wave synth gain = enabled ? level : 0"),
        .number("oceanWaveSynthLevel", 0, 1, step: 0.01, default: 0, "R", "also the worklet \"intensity\" → effective level²"),
        .choice("oceanFilterType", ["lowpass", "bandpass", "highpass", "notch"], default: "lowpass", "R", "shared ocean BiquadFilter type"),
        .number("oceanFilterCutoff", 40, 12000, step: 10, default: 8000, "R", "Hz"),
        .number("oceanFilterResonance", 0, 1, step: 0.01, default: 0.1, "R", "Q = 0.5 + 10·resonance"),
        .number("oceanDuration", 2, 15, step: 0.5, default: 7, "R", "wave duration s (min=max unless sampleHold range)"),
        .number("oceanInterval", 3, 20, step: 0.5, default: 8.5, "R", "s between wave starts"),
        .number("oceanFoam", 0, 1, step: 0.01, default: 0.35, "R", "foam amount"),
        .number("oceanDepth", 0, 1, step: 0.01, default: 0.5, "R", "rumble amount"),
        // S. Random walk
        .number("randomWalkSpeed", 0.1, 5, step: 0.1, default: 1, "S", "UI-side speed of all walk-mode sliders (§2 T)"),
    ]
}
