import Kessho

/// What the ambient engine does with each Kessho key. Kept in one place so that the schema and
/// the docs change a single table. Every key, rendered or not, is stored and hashed into the
/// phrase seed, as on the web (a preset's value for it is kept); a stored-only key has no
/// address: no OSC, page, layout or schema row offers a fader that does nothing.
public enum AmbientKeyStatus: Equatable, Sendable {
    /// The engine renders it (the reason says how, when it needs saying).
    case rendered(String?)
    /// Kept in the state only; the reason says why.
    case storedOnly(String)
    /// The engine writes it; OSC may read it only.
    case readOnly(String)

    /// Keys the engine does not render, with the reason (every other key is rendered).
    static let exceptions: [String: AmbientKeyStatus] = {
        var table: [String: AmbientKeyStatus] = [
            "randomness": .storedOnly("UI only on the web"),
            "filterResonance": .storedOnly("no audible effect, as on the web (its filter walk overwrites it)"),
            "reverbEngine": .storedOnly("only the algorithmic reverb exists, as on the web"),
            "reverbQuality": .rendered("applied at start (--ambient-quality); presets never set it"),
            "maxGrains": .storedOnly("the web's live granulator ignores it (fixed 64-grain pool)"),
            "oceanSampleEnabled": .storedOnly("no field recording is shipped"),
            "oceanSampleLevel": .storedOnly("no field recording is shipped"),
            "cofCurrentStep": .readOnly("engine-owned: the circle-of-fifths drift position"),
            "randomWalkSpeed": .rendered("the speed of the preset's walking sliders"),
            "leadTimbre": .storedOnly("legacy; the web's engine does not read it"),
            "leadVibratoDepth": .storedOnly("the web draws it per note but applies no vibrato; so do we"),
            "leadVibratoRate": .storedOnly("the web draws it per note but applies no vibrato; so do we"),
            "lead1MorphMode": .storedOnly("the web's engine does not read it"),
            "lead2MorphMode": .storedOnly("the web's engine does not read it"),
            "drumEuclidSwing": .storedOnly("the web's scheduler does not read it (only evolve sets a lane's swing)"),
            "drumEuclidDivision": .storedOnly("the web's scheduler does not read it (lane divisions are fixed)"),
            "drumMorphSliderAnimate": .storedOnly("UI only on the web"),
            "drumClickStereoWidth": .storedOnly("drum hits are mono, summed to the centre (the web spreads click grains across the field)"),
        ]
        for voice in ["Sub", "Kick", "Click", "BeepHi", "BeepLo", "Noise", "Membrane"] {
            table["drum\(voice)MorphAuto"] = .rendered("moves the voice between its presets A and B, as the web's morph animation does")
            table["drum\(voice)MorphSpeed"] = .rendered("the morph animation's cycles a minute")
            table["drum\(voice)MorphMode"] = .rendered("the morph animation: linear a sawtooth, pingpong a triangle, random stays at 0 (as on the web)")
        }
        for n in 1...4 {
            for field in ["VelocityMin", "VelocityMax"] {
                table["drumEuclid\(n)\(field)"] = .storedOnly("the web seeds a UI expression lane with it; the engine plays the lane level")
            }
        }
        return table
    }()

    /// The Kessho keys that are stored only: kept in the state (and so in the phrase seed) when a
    /// Kessho preset carries them, but without an address.
    public static let unaddressed: Set<String> = Set(exceptions.compactMap { key, status in
        if case .storedOnly = status { key } else { nil }
    })

    public static func status(of key: String) -> AmbientKeyStatus {
        if let exception = exceptions[key] { return exception }
        guard KesshoParameters.parameter(key) != nil else { return .storedOnly("not a Kessho key") }
        return .rendered(nil)
    }

    /// For the schema's table.
    public var summary: String {
        switch self {
        case .rendered(nil): "rendered"
        case .rendered(let why?): "rendered: \(why)"
        case .storedOnly(let why): "stored only: \(why)"
        case .readOnly(let why): "read-only: \(why)"
        }
    }
}
