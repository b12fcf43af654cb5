/// Text that came from outside — an OSC sender's address, a name it sent, a reason quoting them —
/// made fit for a log line or an `/error` reply: control and bidirectional-override characters
/// shown as escapes, so a newline in a name cannot start a forged log line, and long text cut,
/// so a 60 KB string costs a short line, not a screenful.
public enum UntrustedText {
    /// Characters kept before the cut.
    public static let limit = 200

    /// `text` with `\n`, `\r`, `\t` and other invisible controls escaped (`\u{1B}`), cut after
    /// `limit` characters with "… (N characters)" giving the original length.
    public static func clean(_ text: String, limit: Int = limit) -> String {
        var out = ""
        var kept = 0
        for character in text {
            guard kept < limit else {
                return out + "… (\(text.count) characters)"
            }
            for scalar in character.unicodeScalars { out += escaped(scalar) }
            kept += 1
        }
        return out
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            return isInvisibleControl(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
    }

    /// C0/C1 controls, line and paragraph separators, and the marks that reorder text on screen.
    private static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            || scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
        }
    }
}
