import Foundation

/// The web loader's merge over the defaults and its type/range sanitising (after migration and
/// normalisation).
enum KesshoPresetSanitizer {
    static func merge(_ raw: KesshoOrderedMap<KesshoJSONValue>, policy: KesshoRangePolicy,
                      warnings: inout [String]) -> KesshoState {
        var state = KesshoState.defaults  // known keys keep the defaults' order; unknown ones append in file order
        for (key, value) in raw.entries {
            if let p = KesshoParameters.parameter(key) {
                state[key] = sanitize(value, for: p, policy: policy, warnings: &warnings)
            } else if let v = scalar(value) {
                state[key] = v
            } else {
                warnings.append("unknown key \(key) has a non-scalar value, dropped")
            }
        }
        return state
    }

    /// Numbers must be finite (numeric strings are converted), booleans booleans, strings strings;
    /// anything else takes the default. Enum strings are not validated (as on the web).
    static func sanitize(_ v: KesshoJSONValue, for p: KesshoParameter, policy: KesshoRangePolicy,
                         warnings: inout [String]) -> KesshoValue {
        switch p.kind {
        case .number(let range, _):
            var n: Double?
            switch v {
            case .number(let d): n = d
            case .string(let s): n = Double(s.trimmingCharacters(in: .whitespaces)); if n != nil { warnings.append("\(p.key): numeric string converted") }
            default: n = nil
            }
            guard let value = n, value.isFinite else {
                warnings.append("\(p.key): not a finite number, default used")
                return p.defaultValue
            }
            // A value equal to the default passes: drumNoiseAttack's web default (0) lies outside its own range.
            guard let range, !range.contains(value), p.defaultValue != .number(value) else { return .number(value) }
            switch policy {
            case .keep:
                warnings.append("\(p.key)=\(KesshoJSNumber.format(value)) outside \(range), kept")
                return .number(value)
            case .clamp:
                let c = min(max(value, range.lowerBound), range.upperBound)
                warnings.append("\(p.key)=\(KesshoJSNumber.format(value)) clamped to \(KesshoJSNumber.format(c))")
                return .number(c)
            case .reject:
                warnings.append("\(p.key)=\(KesshoJSNumber.format(value)) outside \(range), default used")
                return p.defaultValue
            }
        case .bool:
            if case .bool(let b) = v { return .bool(b) }
            warnings.append("\(p.key): not a boolean, default used")
            return p.defaultValue
        case .choice, .text:
            if case .string(let s) = v { return .string(s) }
            warnings.append("\(p.key): not a string, default used")
            return p.defaultValue
        }
    }

    static func scalar(_ v: KesshoJSONValue) -> KesshoValue? {
        switch v {
        case .number(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        default: return nil
        }
    }

    /// A disabled engine's level is forced to 0.
    static func zeroDisabledLevels(_ s: inout KesshoState) {
        for (flag, level) in [("granularEnabled", "granularLevel"), ("leadEnabled", "leadLevel"),
                              ("drumEnabled", "drumLevel"), ("oceanSampleEnabled", "oceanSampleLevel"),
                              ("oceanWaveSynthEnabled", "oceanWaveSynthLevel")] where s.bool(flag) == false {
            s[level] = .number(0)
        }
    }
}
