import Foundation

/// The web loader's merge over the defaults and its type/range sanitising (after migration and
/// normalisation). Every known number is checked against its range (`KesshoParameter.loadRange`);
/// warnings say where the value was written when the file told us (`place`: "line L, column C: ").
enum KesshoPresetSanitizer {
    static func merge(_ raw: KesshoOrderedMap<KesshoJSONValue>, policy: KesshoRangePolicy,
                      place: (String) -> String = { _ in "" }, warnings: inout [String]) -> KesshoState {
        var state = KesshoState.defaults  // known keys keep the defaults' order; unknown ones append in file order
        for (key, value) in raw.entries {
            if let p = KesshoParameters.parameter(key) {
                var own: [String] = []
                state[key] = sanitize(value, for: p, policy: policy, warnings: &own)
                warnings += own.map { place(key) + $0 }
            } else if let v = scalar(value) {
                state[key] = v
            } else {
                warnings.append("\(place(key))unknown key \(key) has a non-scalar value, dropped")
            }
        }
        return state
    }

    /// Numbers must be finite (numeric strings are converted), booleans booleans, strings strings;
    /// anything else takes the default. Enum strings are not validated (as on the web).
    static func sanitize(_ v: KesshoJSONValue, for p: KesshoParameter, policy: KesshoRangePolicy,
                         warnings: inout [String]) -> KesshoValue {
        switch p.kind {
        case .number:
            var n: Double?
            switch v {
            case .number(let d): n = d
            case .string(let s): n = Double(s.trimmingCharacters(in: .whitespaces)); if n != nil { warnings.append("\(p.key): numeric string converted") }
            default: n = nil
            }
            guard var value = n, value.isFinite else {
                warnings.append("\(p.key): not a finite number, default used")
                return p.defaultValue
            }
            if p.needsWholeNumber, value != value.rounded() {
                warnings.append("\(p.key)=\(KesshoJSNumber.format(value)) is not a whole number, rounded to \(KesshoJSNumber.format(value.rounded()))")
                value = value.rounded()
            }
            // A value equal to the default passes: drumNoiseAttack's web default (0) lies outside its own range.
            guard let range = p.loadRange, !range.contains(value), p.defaultValue != .number(value) else { return .number(value) }
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

    /// Dual ranges must be finite with min ≤ max; for keys with a range both ends are brought
    /// into it as the policy says (the slider walk and per-trigger draws pick values between them).
    static func checkDualRanges(_ ranges: inout KesshoOrderedMap<KesshoDualRange>, policy: KesshoRangePolicy,
                                place: (String) -> String = { _ in "" }, warnings: inout [String]) {
        for (key, r) in ranges.entries {
            guard r.min.isFinite, r.max.isFinite, r.min <= r.max else {
                warnings.append("\(place(key))dualRanges.\(key) {\(KesshoJSNumber.format(r.min)), \(KesshoJSNumber.format(r.max))} is not a finite min ≤ max, dropped")
                ranges[key] = nil
                continue
            }
            guard let bounds = KesshoParameters.parameter(key)?.loadRange, !(bounds.contains(r.min) && bounds.contains(r.max)),
                  policy != .keep else { continue }
            if policy == .reject {
                warnings.append("\(place(key))dualRanges.\(key) outside \(bounds), dropped")
                ranges[key] = nil
                continue
            }
            let clamped = KesshoDualRange(min: min(max(r.min, bounds.lowerBound), bounds.upperBound),
                                          max: min(max(r.max, bounds.lowerBound), bounds.upperBound))
            warnings.append("\(place(key))dualRanges.\(key) clamped to {\(KesshoJSNumber.format(clamped.min)), \(KesshoJSNumber.format(clamped.max))}")
            ranges[key] = clamped
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
