import Kessho

/// What the ambient engine does with each Kessho key today. Kept in one place so that the schema,
/// the docs and the next issue (lead and drums) change a single table. Every key, rendered or
/// not, is stored, hashed into the phrase seed and fed back, as on the web.
public enum AmbientKeyStatus: Equatable, Sendable {
    /// The engine renders it (the reason says how, when it needs saying).
    case rendered(String?)
    /// Kept in the state only; the reason says why.
    case storedOnly(String)
    /// The engine writes it; OSC may read it only.
    case readOnly(String)

    /// Sections (`KesshoParameter.section`) the ambient plugin renders: A mixer, B global, C
    /// harmony, D–E pad, F reverb, G granular, R ocean.
    static let renderedSections: Set<String> = ["A", "B", "C", "D", "E", "F", "G", "R"]

    static let leadSections: Set<String> = ["H", "I", "J", "K"]

    /// Keys of rendered sections that are nevertheless not heard, with the reason.
    static let exceptions: [String: AmbientKeyStatus] = [
        "leadReverbSend": .storedOnly("the lead is not rendered yet"),
        "leadDelayReverbSend": .storedOnly("the lead is not rendered yet"),
        "randomness": .storedOnly("UI only on the web"),
        "filterResonance": .storedOnly("no audible effect, as on the web (its filter walk overwrites it)"),
        "reverbEngine": .storedOnly("only the algorithmic reverb exists, as on the web"),
        "reverbQuality": .rendered("applied at start (--ambient-quality); presets never set it"),
        "maxGrains": .storedOnly("the web's live granulator ignores it (fixed 64-grain pool)"),
        "oceanSampleEnabled": .storedOnly("no field recording is shipped"),
        "oceanSampleLevel": .storedOnly("no field recording is shipped"),
        "cofCurrentStep": .readOnly("engine-owned: the circle-of-fifths drift position"),
        "randomWalkSpeed": .rendered("the speed of the preset's walking sliders"),
    ]

    public static func status(of key: String) -> AmbientKeyStatus {
        if let exception = exceptions[key] { return exception }
        guard let parameter = KesshoParameters.parameter(key) else { return .storedOnly("not a Kessho key") }
        if renderedSections.contains(parameter.section) { return .rendered(nil) }
        // H–K: the lead and its Euclidean sequencer (with the synth chord switch); L–Q2: drums.
        return .storedOnly(leadSections.contains(parameter.section) ? "the lead is not rendered yet" : "the drums are not rendered yet")
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
