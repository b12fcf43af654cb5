import EntrainCore
import EntrainEngine
import Foundation

/// Presets: named sets of parameter values, stored as JSON documents keyed by OSC address
/// (choices by name), so they stay readable and survive new parameters. Also the last-used
/// settings, restored at start.
public struct Presets: Sendable {
    public static let format = "entrain-preset/1"
    public let store: NamedStore
    let table = Engine.parameterTable

    public init(dataDirectory: URL = NamedStore.dataDirectory()) {
        store = NamedStore(kind: "preset", folder: dataDirectory.appendingPathComponent("presets"))
    }

    /// Not part of any preset: arming the strobe is a decision made each run (--arm-strobe or
    /// /led/arm), never something a preset, playlist or last-used settings may carry in.
    public static let excluded: Set<String> = ["/led/arm"]

    /// The document for `values`: every parameter, in table order.
    public func document(name: String, values: ParameterValues) -> String {
        let lines = table.entries.filter { !Self.excluded.contains($0.spec.address) }.map { entry -> String in
            let value = values[entry.index]
            let text: String
            if case .choice(let options, _) = entry.spec.kind { text = "\"\(options[Int(value)])\"" } else { text = ParameterSpec.format(value) }
            return "    \"\(entry.spec.address)\": \(text)"
        }
        return "{\n  \"format\": \"\(Self.format)\",\n  \"name\": \"\(name)\",\n  \"values\": {\n" + lines.joined(separator: ",\n") + "\n  }\n}\n"
    }

    public func save(_ name: String, values: ParameterValues) throws { try store.write(name, document(name: name, values: values)) }

    /// The preset's values over `base` (a preset may name only some parameters), checked by the
    /// table; problems come back as file:line:column.
    public func load(_ name: String, over base: ParameterValues) throws -> ParameterValues {
        return try Self.decode(try store.read(name).text, file: store.label(name), over: base)
    }

    /// A preset document's values over `base`, checked by the parameter table.
    public static func decode(_ text: String, file: String, over base: ParameterValues) throws -> ParameterValues {
        let table = Engine.parameterTable
        let root: JSONNode
        do { root = try JSONDocument.parse(text) } catch let e as JSONSyntaxError {
            throw LibraryError.badFile(file, "\(e.line):\(e.column): \(e.message)")
        }
        guard let valuesNode = root["values"], case .object(let members) = valuesNode.value else {
            throw LibraryError.badFile(file, "expected {\"values\": {address: value, …}}")
        }
        var values = base
        var problems: [String] = []
        for (address, node) in members {
            guard let entry = try? table.entry(for: address) else { problems.append("\(node.line):\(node.column): unknown parameter \(address)"); continue }
            if excluded.contains(address) { continue }  // older files may hold it: ignored, never applied
            do {
                switch node.value {
                case .number(let n): values[entry.index] = try entry.spec.validate(n)
                case .string(let s): values[entry.index] = try entry.spec.parse(s)
                default: problems.append("\(node.line):\(node.column): \(address): expected a number or a name")
                }
            } catch { problems.append("\(node.line):\(node.column): \(error)") }
        }
        do { try table.checkConstraints(values) } catch { problems.append("\(root.line):\(root.column): \(error)") }
        guard problems.isEmpty else { throw LibraryError.badFile(file, problems.joined(separator: "; ")) }
        return values
    }

    // MARK: - Last used

    var lastUsedURL: URL { store.folder.deletingLastPathComponent().appendingPathComponent("last-used.json") }

    public func saveLastUsed(_ values: ParameterValues) throws {
        try AtomicFile.write(Data(document(name: "last used", values: values).utf8), to: lastUsedURL, label: "last-used.json")
    }

    /// The last-used settings over `base`, or nil if there are none (or they no longer fit, or
    /// the file leads out of the data folder).
    public func lastUsed(over base: ParameterValues) -> ParameterValues? {
        guard let text = try? NamedStore.readConfined(lastUsedURL, in: lastUsedURL.deletingLastPathComponent(),
                                                      label: "last-used.json", kind: "data") else { return nil }
        return try? Self.decode(text, file: "last-used.json", over: base)
    }
}
