/// Saves a preset as the web does: `JSON.stringify(preset, null, 2)`, empty dualRanges/sliderModes omitted.
public enum KesshoPresetWriter {
    public static func json(_ preset: KesshoPreset) -> String {
        var top: [(String, String)] = [
            ("name", KesshoStateJSON.quote(preset.name)),
            ("timestamp", KesshoStateJSON.quote(preset.timestamp)),
            ("state", object(preset.state.entries.map { ($0.key, KesshoStateJSON.stringify($0.value)) }, indent: 1)),
        ]
        if !preset.dualRanges.isEmpty {
            top.append(("dualRanges", object(preset.dualRanges.entries.map { entry in
                (entry.key, object([("min", KesshoJSNumber.jsonNumber(entry.value.min)),
                                    ("max", KesshoJSNumber.jsonNumber(entry.value.max))], indent: 2))
            }, indent: 1)))
        }
        if !preset.sliderModes.isEmpty {
            top.append(("sliderModes", object(preset.sliderModes.entries.map {
                ($0.key, KesshoStateJSON.quote($0.value.rawValue))
            }, indent: 1)))
        }
        return object(top, indent: 0)
    }

    public static func data(_ preset: KesshoPreset) -> [UInt8] { Array(json(preset).utf8) }

    /// One object at nesting depth `indent`, members already rendered; JS writes `{}` when empty.
    private static func object(_ members: [(String, String)], indent: Int) -> String {
        guard !members.isEmpty else { return "{}" }
        let inner = String(repeating: "  ", count: indent + 1)
        let body = members.map { inner + KesshoStateJSON.quote($0.0) + ": " + $0.1 }.joined(separator: ",\n")
        return "{\n" + body + "\n" + String(repeating: "  ", count: indent) + "}"
    }
}

extension KesshoJSNumber {
    /// JSON text of a number: non-finite values become null, as in JS.
    static func jsonNumber(_ v: Double) -> String { v.isFinite ? format(v) : "null" }
}
