/// Description of one state key of the Kessho web app: its kind, quantiser range and default.
public struct KesshoParameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A JS number; `range`/`step` are the QUANTIZATION entry, nil where the web has none.
        case number(range: ClosedRange<Double>?, step: Double?)
        case bool
        /// A string literal union (enum); the loader does not validate it, like the web.
        case choice([String])
        /// A free string (preset ids, pattern ids, scale names, note divisions).
        case text
    }

    public let key: String
    public let kind: Kind
    public let defaultValue: KesshoValue
    /// Section letter grouping the keys: A mixer, B global/seed/drift, C harmony, D–E pad, F reverb,
    /// G granular, H–K lead, L–Q drums (M every drum voice, Q2 drum lanes), R ocean, S random walk.
    public let section: String
    public let meaning: String

    public var range: ClosedRange<Double>? { if case .number(let r, _) = kind { return r }; return nil }
    public var step: Double? { if case .number(_, let s) = kind { return s }; return nil }

    static func number(_ key: String, _ min: Double, _ max: Double, step: Double, default value: Double,
                       _ section: String, _ meaning: String) -> KesshoParameter {
        KesshoParameter(key: key, kind: .number(range: min...max, step: step), defaultValue: .number(value),
                        section: section, meaning: meaning)
    }

    static func freeNumber(_ key: String, default value: Double, _ section: String, _ meaning: String) -> KesshoParameter {
        KesshoParameter(key: key, kind: .number(range: nil, step: nil), defaultValue: .number(value),
                        section: section, meaning: meaning)
    }

    static func bool(_ key: String, default value: Bool, _ section: String, _ meaning: String) -> KesshoParameter {
        KesshoParameter(key: key, kind: .bool, defaultValue: .bool(value), section: section, meaning: meaning)
    }

    static func choice(_ key: String, _ options: [String], default value: String,
                       _ section: String, _ meaning: String) -> KesshoParameter {
        KesshoParameter(key: key, kind: .choice(options), defaultValue: .string(value), section: section, meaning: meaning)
    }

    static func text(_ key: String, default value: String, _ section: String, _ meaning: String) -> KesshoParameter {
        KesshoParameter(key: key, kind: .text, defaultValue: .string(value), section: section, meaning: meaning)
    }

    /// The web's quantize(): clamp to the range, then snap to multiples of the step
    /// (values pass through unchanged for keys without a quantiser entry).
    public func quantize(_ value: Double) -> Double {
        guard let range, let step, step > 0 else { return value }
        let clamped = Swift.min(Swift.max(value, range.lowerBound), range.upperBound)
        return (clamped / step).rounded() * step
    }
}
