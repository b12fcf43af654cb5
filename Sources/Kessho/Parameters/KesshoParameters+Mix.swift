// Generated from the reference's §2 tables by scripts/kessho-gen-params.py; edit there, not here.
// Sections A–E: master mixer, global/seed/CoF, harmony, pad envelope and timbre.

extension KesshoParameters {
    static let mix: [KesshoParameter] = [
        // A. Master mixer (gain stages, all linear)
        .number("masterVolume", 0, 1, step: 0.01, default: 0.7, "A", "master GainNode before limiter"),
        .number("synthLevel", 0, 1, step: 0.01, default: 0.6, "A", "synthDirect gain (dry pad → master)"),
        .number("granularLevel", 0, 2, step: 0.01, default: 0.4, "A", "granularDirect gain (granular wet → master); 0 if granularEnabled=false. Quantizer allows 0..2 (interface comment says 0..1)"),
        .number("synthReverbSend", 0, 1, step: 0.01, default: 0.7, "A", "synth bus → reverb; 0 if reverbEnabled=false"),
        .number("granularReverbSend", 0, 1, step: 0.01, default: 0.8, "A", "granular wet → reverb; 0 if granular or reverb disabled"),
        .number("leadReverbSend", 0, 1, step: 0.01, default: 0.5, "A", "lead (post lead filter) → reverb; 0 if reverb disabled"),
        .number("leadDelayReverbSend", 0, 1, step: 0.01, default: 0.4, "A", "lead delay wet → reverb; 0 if reverb disabled"),
        .number("reverbLevel", 0, 2, step: 0.01, default: 1, "A", "reverb output gain (0..2); 0 if reverb disabled"),
        // B. Global / seed / Circle-of-Fifths drift
        .choice("seedWindow", ["hour", "day"], default: "hour", "B", "UTC bucket granularity for seeds (see §4.1)"),
        .number("randomness", 0, 1, step: 0.01, default: 0.5, "B", "UI only — no audio effect (but part of hashed state JSON)"),
        .freeNumber("rootNote", default: 4, "B", "home key, semitone 0..11 (C=0 … B=11); no quantizer entry"),
        .bool("cofDriftEnabled", default: false, "B", "enable key drift; when false engine forces step=0"),
        .number("cofDriftRate", 1, 8, step: 1, default: 2, "B", "phrases between drift moves"),
        .choice("cofDriftDirection", ["cw", "ccw", "random"], default: "cw", "B", "cw = +1 step (up a fifth), ccw = −1, random = coin flip"),
        .number("cofDriftRange", 1, 6, step: 1, default: 3, "B", "max absolute step from home"),
        .freeNumber("cofCurrentStep", default: 0, "B", "runtime position −6..6 (engine-owned; written back for UI)"),
        // C. Harmony / pitch
        .choice("scaleMode", ["auto", "manual"], default: "auto", "C", "auto = weighted pick by tension each chord change; manual = fixed scale"),
        .text("manualScale", default: "Major (Ionian)", "C", "one of the 11 scale names in §4.3 (generic, no root prefix)"),
        .number("tension", 0, 1, step: 0.01, default: 0.3, "C", "scale band + weights; also chord size (3–4 notes if <0.5 else 4–5)"),
        .number("chordRate", 8, 64, step: 1, default: 32, "C", "seconds per chord; phrasesPerChord = max(1, round(chordRate/16))"),
        .number("voicingSpread", 0, 1, step: 0.01, default: 0.5, "C", ">0.5 enables random ±12 octave displacement of added chord tones"),
        .number("waveSpread", 0, 30, step: 0.5, default: 4, "C", "max random stagger (s) of voice entries on chord change; quantizer 0..30 /0.5, comment says 0..4"),
        .number("detune", 0, 25, step: 1, default: 8, "C", "± random cents per chord note, and ∓ cents on oscillators 2/3"),
        // D. Pad voice envelope / allocation
        .number("synthAttack", 0.01, 16, step: 0.01, default: 6, "D", "s; UI slider 0.01..8, quantizer clamps at 16"),
        .number("synthDecay", 0.01, 8, step: 0.01, default: 1, "D", "s"),
        .number("synthSustain", 0, 1, step: 0.01, default: 0.8, "D", "level 0..1"),
        .number("synthRelease", 0.01, 30, step: 0.01, default: 12, "D", "s; UI slider 0.01..16, quantizer clamps at 30"),
        .number("synthVoiceMask", 1, 63, step: 1, default: 63, "D", "bit i enables voice i (6 voices); 63 = all"),
        .number("synthOctave", -2, 2, step: 1, default: 0, "D", "frequency × 2^octave"),
        // E. Pad timbre
        .number("hardness", 0, 1, step: 0.01, default: 0.3, "E", "waveshaper drive = 1+3·hardness; also scales resonance term"),
        .number("oscBrightness", 0, 3, step: 1, default: 2, "E", "0 sine, 1 sine+tri, 2 tri+2 saws, 3 two saws (see §4.6)"),
        .choice("filterType", ["lowpass", "bandpass", "highpass", "notch"], default: "lowpass", "E", "voice BiquadFilter type"),
        .number("filterCutoffMin", 40, 8000, step: 10, default: 400, "E", "Hz, low end of random-walk sweep"),
        .number("filterCutoffMax", 40, 8000, step: 10, default: 3000, "E", "Hz, high end of sweep"),
        .number("filterModSpeed", 0, 16, step: 0.5, default: 2, "E", "walk speed divisor; 0 = frozen; quantizer 0..16, comment 0..8"),
        .number("filterResonance", 0, 1, step: 0.01, default: 0.2, "E", "adds Q (see §4.7; effectively overwritten within 100 ms by walk timer)"),
        .number("filterQ", 0.1, 12, step: 0.1, default: 1, "E", "base Q"),
        .number("warmth", 0, 1, step: 0.01, default: 0.4, "E", "low-shelf 250 Hz gain = 8·warmth dB"),
        .number("presence", 0, 1, step: 0.01, default: 0.3, "E", "peaking 3 kHz Q0.8 gain = 12·(presence−0.5) dB"),
        .number("airNoise", 0, 1, step: 0.01, default: 0.15, "E", "looped white noise into filter, gain = 0.1·airNoise"),
    ]
}
