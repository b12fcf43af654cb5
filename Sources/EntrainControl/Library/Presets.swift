import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation

/// Presets: named snapshots of every family's values (the engine's parameters, the Kessho keys,
/// …), stored as JSON documents keyed by address (choices by name), so they stay readable and
/// survive new parameters. Also the last-used settings, restored at start. Every entry is
/// checked with the address space's rules when read.
public struct Presets: Sendable {
    public static let format = "entrain-preset/1"
    public let store: NamedStore

    public init(dataDirectory: URL = NamedStore.dataDirectory()) {
        store = NamedStore(kind: "preset", folder: dataDirectory.appendingPathComponent("presets"))
    }

    /// The document for `entries` (address, value), in their order. Entries a preset never
    /// carries (arming the strobe, engine-owned positions) are left out.
    public func document(name: String, entries: [(address: String, value: ControlValue)]) -> String {
        let lines = entries.filter { !StandardAddresses.isTransient($0.address) }
            .map { "    \(SessionEncoder.quote($0.address)): \(SessionEncoder.json($0.value))" }
        return "{\n  \"format\": \"\(Self.format)\",\n  \"name\": \(SessionEncoder.quote(name)),\n  \"values\": {\n"
            + lines.joined(separator: ",\n") + "\n  }\n}\n"
    }

    /// The engine's values alone (`entrain preset save` on the command line).
    public func document(name: String, values: ParameterValues) -> String { document(name: name, entries: EngineFamily.entries(values)) }

    public func save(_ name: String, entries: [(address: String, value: ControlValue)]) throws {
        try store.write(name, document(name: name, entries: entries))
    }

    public func save(_ name: String, values: ParameterValues) throws { try save(name, entries: EngineFamily.entries(values)) }

    /// Every entry of preset `name`, checked.
    public func changes(_ name: String) throws -> [ControlChange] {
        try Self.changes(try store.read(name).text, file: store.label(name))
    }

    /// The preset's engine values over `base` (a preset may name only some parameters).
    public func load(_ name: String, over base: ParameterValues) throws -> ParameterValues {
        return try Self.decode(try store.read(name).text, file: store.label(name), over: base)
    }

    /// A preset document's entries, each checked against its address (problems come back as
    /// file:line:column). Entries a preset may not carry are ignored (older files may hold them).
    public static func changes(_ text: String, file: String) throws -> [ControlChange] {
        let (changes, problems) = try read(text, file: file)
        guard problems.isEmpty else { throw LibraryError.badFile(file, problems.joined(separator: "; ")) }
        return changes
    }

    /// The entries that pass their checks, and a positioned problem for each that does not.
    public static func read(_ text: String, file: String) throws -> (changes: [ControlChange], problems: [String]) {
        let root: JSONNode
        do { root = try JSONDocument.parse(text) } catch let e as JSONSyntaxError {
            throw LibraryError.badFile(file, "\(e.line):\(e.column): \(e.message)")
        }
        guard let valuesNode = root["values"], case .object(let members) = valuesNode.value else {
            throw LibraryError.badFile(file, "expected {\"values\": {address: value, …}}")
        }
        var changes: [ControlChange] = []
        var problems: [String] = []
        for (address, node) in members where !StandardAddresses.isTransient(address) {
            guard let given = ControlValue(json: node.value) else {
                problems.append("\(node.line):\(node.column): \(address): expected a number, a name or true/false, got \(node.kindName)")
                continue
            }
            do { changes.append(try StandardAddresses.parse(address, given, from: .file)) } catch {
                problems.append("\(node.line):\(node.column): \(error)")
            }
        }
        return (changes, problems)
    }

    /// A preset document's engine values over `base`, with the rules between parameters checked.
    public static func decode(_ text: String, file: String, over base: ParameterValues) throws -> ParameterValues {
        var (changes, problems) = try read(text, file: file)
        let values = try EngineFamily.fold(changes, into: base)
        do { try Engine.parameterTable.checkConstraints(values) } catch { problems.append("\(error)") }
        guard problems.isEmpty else { throw LibraryError.badFile(file, problems.joined(separator: "; ")) }
        return values
    }

    /// Whether loading a preset changes `address`: the master section (fades and ceiling) belongs
    /// to the run, not to a preset.
    public static func appliesOnLoad(_ address: String) -> Bool { !address.hasPrefix("/master/") }

    // MARK: - Last used

    var lastUsedURL: URL { store.folder.deletingLastPathComponent().appendingPathComponent("last-used.json") }

    public func saveLastUsed(entries: [(address: String, value: ControlValue)]) throws {
        try AtomicFile.write(Data(document(name: "last used", entries: entries).utf8), to: lastUsedURL, label: "last-used.json")
    }

    public func saveLastUsed(_ values: ParameterValues) throws { try saveLastUsed(entries: EngineFamily.entries(values)) }

    /// The last-used settings' text, or nil if there are none (or the file leads out of the data folder).
    private var lastUsedText: String? {
        try? NamedStore.readConfined(lastUsedURL, in: lastUsedURL.deletingLastPathComponent(), label: "last-used.json", kind: "data")
    }

    /// The last-used settings that still pass their checks, and why the others were dropped (a
    /// value an older version saved that this one refuses, such as a mapping onto the strobe's
    /// arming); nil if there are none or the file cannot be read.
    public func lastUsedChanges() -> (changes: [ControlChange], problems: [String])? {
        lastUsedText.flatMap { try? Self.read($0, file: "last-used.json") }
    }

    /// The last-used engine values over `base`, or nil.
    public func lastUsed(over base: ParameterValues) -> ParameterValues? {
        lastUsedText.flatMap { try? Self.decode($0, file: "last-used.json", over: base) }
    }
}
