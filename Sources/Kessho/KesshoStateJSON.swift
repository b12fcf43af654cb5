/// `JSON.stringify` as JavaScript writes it, byte for byte: the phrase seeds hash this text.
public enum KesshoStateJSON {
    /// Compact JSON of the state: keys in the state's order, no spaces.
    public static func stringify(_ state: KesshoState) -> String {
        var out = "{"
        var first = true
        for (key, value) in state.entries {
            if !first { out += "," }
            first = false
            out += quote(key) + ":" + stringify(value)
        }
        return out + "}"
    }

    public static func stringify(_ value: KesshoValue) -> String {
        switch value {
        case .number(let v): return v.isFinite ? KesshoJSNumber.format(v) : "null"  // JS writes NaN/±Infinity as null
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return quote(s)
        }
    }

    /// JS string quoting: escapes only `"`, `\` and control characters below U+0020
    /// (short forms \b \f \n \r \t, otherwise \u00xx in lowercase hex); everything else is literal.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for unit in s.unicodeScalars {
            switch unit {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if unit.value < 0x20 {
                    let hex = String(unit.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(unit)
                }
            }
        }
        return out + "\""
    }
}
