import EntrainAddressSpace

/// The text both MIDI maps are written in: `CHANNEL:NUMBER=VALUE` items separated by commas
/// (`none`: no item), a channel 1–16, a number 0–127 — a controller, a program, or with `note`
/// before it a note (`10:note36`).
enum MIDIBindingList {
    static func parse(_ text: String, at address: String, notes: Bool, shape: String) throws(ControlError) -> [(MIDIControlMap.Key, String)] {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if items == ["none"] { return [] }
        var out: [(MIDIControlMap.Key, String)] = []
        for item in items {
            let sides = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard sides.count == 2, !sides[1].isEmpty, let key = MIDIControlMap.Key(parsing: sides[0], notes: notes) else {
                throw ControlError(address, "'\(item)' is not \(shape)")
            }
            out.append((key, sides[1]))
        }
        return out
    }

    /// `added`'s items over `current`'s: both kept, `added` winning on the same key; nil when
    /// either does not read.
    static func merging(_ added: String, over current: String, at address: String, notes: Bool) -> String? {
        guard let old = try? parse(current, at: address, notes: notes, shape: ""),
              let new = try? parse(added, at: address, notes: notes, shape: "") else { return nil }
        return text(Dictionary(old + new) { $1 }) { $0 }
    }

    static func text<Value>(_ bindings: [MIDIControlMap.Key: Value], _ describe: (Value) -> String) -> String {
        bindings.isEmpty ? "none" : bindings.keys.sorted().map { "\($0)=\(describe(bindings[$0]!))" }.joined(separator: ",")
    }
}
