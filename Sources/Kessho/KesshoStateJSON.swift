import EntrainFiles
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

    /// JS string quoting (JSON.stringify's form; the state hash depends on it).
    public static func quote(_ s: String) -> String { JSONString.quoted(s) }
}
