/// Legacy-key migration and the web's normalisation, the loader's first two steps (before the merge).
enum KesshoPresetMigration {
    typealias RawState = KesshoOrderedMap<KesshoJSONValue>

    /// Legacy `*Min`/`*Max` pairs and the slider mode their range becomes.
    static let legacyPairs: [(key: String, mode: KesshoSliderMode)] =
        ["leadVibratoDepth", "leadVibratoRate", "leadGlide", "leadDelayTime", "leadDelayFeedback", "leadDelayMix",
         "lead1Morph", "lead2Morph", "leadTimbre", "grainSize"].map { ($0, .sampleHold) }
        + ["oceanDuration", "oceanInterval", "oceanFoam", "oceanDepth"].map { ($0, .walk) }

    /// The web's per-key thresholds span 0.0001…0.5, and are not known one by one. We use 0.5 for the
    /// millisecond keys (whose steps are ≥ 1) and 0.0001 for the rest: a range narrower than that is a single value.
    static func threshold(_ key: String) -> Double { ["grainSize", "leadDelayTime"].contains(key) ? 0.5 : 0.0001 }

    static let iosReverbTypes: Set<String> = ["smallRoom", "mediumRoom", "largeRoom", "mediumHall", "largeHall",
                                              "mediumChamber", "largeChamber", "largeRoom2", "mediumHall2",
                                              "mediumHall3", "largeHall2"]

    static let leadRenames: [(old: String, new: String)] = [
        ("leadAttack", "lead1Attack"), ("leadDecay", "lead1Decay"), ("leadSustain", "lead1Sustain"),
        ("leadHold", "lead1Hold"), ("leadRelease", "lead1Release"), ("leadDensity", "lead1Density"),
        ("leadOctave", "lead1Octave"), ("leadOctaveRange", "lead1OctaveRange"),
    ]

    static func migrate(_ s: inout RawState, dualRanges: inout KesshoOrderedMap<KesshoDualRange>,
                        sliderModes: inout KesshoOrderedMap<KesshoSliderMode>, sliderModesPresent: Bool,
                        warnings: inout [String]) {
        // normalizePresetForWeb reads leadTimbreMin/Max for the lead-1 morph; take it before the pair is consumed.
        if s["lead1Morph"] == nil, case .number(let lo)? = s["leadTimbreMin"], case .number(let hi)? = s["leadTimbreMax"] {
            s["lead1Morph"] = .number((lo + hi) / 2)
            warnings.append("the old leadTimbreMin/leadTimbreMax pair is read as lead1Morph = \(KesshoJSNumber.format((lo + hi) / 2)), as the web app does")
        }
        for (key, mode) in legacyPairs {
            let lo = s[key + "Min"], hi = s[key + "Max"]
            guard lo != nil || hi != nil else { continue }
            s[key + "Min"] = nil
            s[key + "Max"] = nil
            switch (lo, hi) {
            case (.number(let a)?, .number(let b)?):
                if b - a > threshold(key) {
                    s[key] = .number((a + b) / 2)
                    dualRanges[key] = KesshoDualRange(min: a, max: b)
                    sliderModes[key] = mode
                    warnings.append("the old \(key)Min/\(key)Max pair is read as a range \(key) moves in (\(mode == .walk ? "wandering" : "drawn anew each time"))")
                } else {
                    s[key] = .number(a)
                    warnings.append("the old \(key)Min/\(key)Max pair is nearly one value: read as \(key) = \(KesshoJSNumber.format(a))")
                }
            case (.number(let a)?, _), (_, .number(let a)?):
                s[key] = .number(a)
                warnings.append("the old \(key)Min/\(key)Max pair has only one value: read as \(key) = \(KesshoJSNumber.format(a))")
            default:
                warnings.append("the old \(key)Min/\(key)Max pair is not numeric: ignored")
            }
        }
        // Dual ranges without a mode: drum morphs are per-hit sample & hold, everything else walks.
        var inferred = 0, drawn = 0
        for key in dualRanges.keys where sliderModes[key] == nil {
            sliderModes[key] = isDrumMorphKey(key) ? .sampleHold : .walk
            inferred += 1
            if isDrumMorphKey(key) { drawn += 1 }
        }
        if inferred > 0 {
            let sliders = inferred == 1 ? "1 slider has" : "\(inferred) sliders have"
            let how = drawn == 0 ? "wanders within its range" : drawn == inferred ? "is drawn anew per drum hit" : "wanders within its range (a drum morph: drawn anew per hit)"
            warnings.append("\(sliders) a range but no mode\(sliderModesPresent ? "" : " (the file has no sliderModes)"): each \(how), as the web app does")
        }
    }

    static func normalize(_ s: inout RawState, warnings: inout [String]) {
        if case .string(let t)? = s["reverbType"], iosReverbTypes.contains(t) {
            s["reverbType"] = .string("hall")
            warnings.append("reverbType \"\(t)\" is the iOS app's: the web's \"hall\" is used")
        }
        if s["lead1UseCustomAdsr"] == nil {
            if let legacy = s["leadUseCustomAdsr"] {
                s["lead1UseCustomAdsr"] = legacy
            } else {
                let hasLegacyAdsr = ["leadAttack", "leadDecay", "leadSustain", "leadRelease"].contains { s[$0] != nil }
                s["lead1UseCustomAdsr"] = .bool(hasLegacyAdsr)
            }
        }
        if s["leadUseCustomAdsr"] != nil { s["leadUseCustomAdsr"] = nil; warnings.append("renamed leadUseCustomAdsr") }
        for (old, new) in leadRenames {
            guard let v = s[old] else { continue }
            s[old] = nil
            if s[new] == nil { s[new] = v; warnings.append("the old key \(old) is read as \(new)") }
            else { warnings.append("dropped legacy \(old) (\(new) present)") }
        }
        for (key, fallback) in [("lead1PresetA", "soft_rhodes"), ("lead1PresetB", "gamelan")] {
            if case .string("")? = s[key] { s[key] = .string(fallback); warnings.append("empty \(key) → \(fallback)") }
        }
    }

    static func isDrumMorphKey(_ key: String) -> Bool {
        ["Sub", "Kick", "Click", "BeepHi", "BeepLo", "Noise", "Membrane"].contains { key == "drum\($0)Morph" }
    }
}
