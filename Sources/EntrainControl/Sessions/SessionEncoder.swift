import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation
import Kessho

/// Writes a session in the documented format (what `entrain import` produces).
public enum SessionEncoder {
    public static func json(_ session: Session) -> String {
        let table = Engine.parameterTable
        func value(_ address: String, _ v: Double) -> String {
            if let descriptor = try? table.entry(for: address).descriptor, case .choice = descriptor.kind { return quote(descriptor.value(number: v).description) }
            return ControlDescriptor.format((v * 1e6).rounded() / 1e6)
        }
        var stages: [String] = []
        for stage in session.stages {
            var fields = ["\"name\": \(quote(stage.name))", "\"duration\": \(ControlDescriptor.format((stage.duration * 1e6).rounded() / 1e6))",
                          "\"transition\": \"\(stage.transition.rawValue)\""]
            if stage.transition == .crossfade { fields.append("\"fade\": \(ControlDescriptor.format(stage.fade))") }
            var voices: [Int: [String]] = [:]
            var noise: [String] = []
            var others: [String] = []  // addresses beyond the entrainment voices (mix, spin, bell, cue): a "set" block
            for (address, v) in stage.changes {
                switch address {
                case _ where !address.hasPrefix("/entrain/"): others.append("\(quote(address)): \(value(address, v))")
                case "/entrain/volume": fields.append("\"volume\": \(value(address, v))")
                case "/entrain/noise": noise.append("\"color\": \(value(address, v))")
                case "/entrain/noise/level": noise.append("\"level\": \(value(address, v))")
                default:
                    let parts = address.split(separator: "/")
                    let (voice, field) = parts.count == 4 ? ((Int(parts[2]) ?? 1) - 1, String(parts[3])) : (0, String(parts.last ?? ""))
                    voices[voice, default: []].append("\"\(field)\": \(value(address, v))")
                }
            }
            if !noise.isEmpty { fields.append("\"noise\": { \(noise.joined(separator: ", ")) }") }
            if let last = voices.keys.max() {
                let list = (0...last).map { v in voices[v].map { "{ \($0.joined(separator: ", ")) }" } ?? "null" }
                fields.append("\"voices\": [\n        \(list.joined(separator: ",\n        "))\n      ]")
            }
            if !stage.sets.isEmpty || !others.isEmpty {
                let entries = others + stage.sets.map { "\(quote($0.address)): \(json($0.value))" }
                fields.append("\"set\": { \(entries.joined(separator: ", ")) }")
            }
            for (key, block) in stage.pluginBlocks { fields.append("\(quote(key)): \(json(block.value))") }
            stages.append("    {\n      " + fields.joined(separator: ",\n      ") + "\n    }")
        }
        return "{\n  \"format\": \"\(SessionDecoder.format)\",\n  \"name\": \(quote(session.name)),\n  \"description\": \(quote(session.description)),\n"
            + "  \"stages\": [\n" + stages.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// A plugin block as it was read (ambient, haptic, …): nothing of it is lost on the way out.
    public static func json(_ value: JSONValue) -> String {
        switch value {
        case .object(let members): "{ " + members.map { "\(quote($0.key)): \(json($0.value.value))" }.joined(separator: ", ") + " }"
        case .array(let items): "[" + items.map { json($0.value) }.joined(separator: ", ") + "]"
        case .string(let s): quote(s)
        case .number(let n): n.isFinite ? ControlDescriptor.format(n) : "null"
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        }
    }

    /// A `"set"` entry's value as JSON.
    static func json(_ value: ControlValue) -> String {
        switch value {
        case .number(let n): ControlDescriptor.format(n)
        case .bool(let b): b ? "true" : "false"
        case .text(let s): quote(s)
        }
    }

    /// JSON string quoting: the Kessho port's, which is JS `JSON.stringify`'s exactly.
    static func quote(_ s: String) -> String { KesshoStateJSON.quote(s) }
}
