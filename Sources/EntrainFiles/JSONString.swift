/// A string as a JSON literal, quoted as JavaScript's JSON.stringify does: only `"`, `\` and
/// control characters below U+0020 are escaped (short forms \b \f \n \r \t, otherwise \u00xx in
/// lowercase hex); everything else is literal. Kessho's state hash depends on this exact form.
public enum JSONString {
    public static func quoted(_ s: String) -> String {
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
