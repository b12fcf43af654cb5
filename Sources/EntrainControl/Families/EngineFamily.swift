import EntrainAddressSpace
import EntrainCore
import EntrainEngine

/// The engine's parameter table as a family of the address space: entrainment, master, beat
/// analysis, light and haptics — and the two source lists (`/led/source`, `/haptic/source`),
/// which set their `/…/source/NAME` toggles together. Always the current engine (it is
/// replaced on a sample-rate change). The table's descriptors are the family's: nothing is
/// converted, and a change arrives checked, carrying its parameter's index.
public final class EngineFamily: AddressFamily {
    public let name = "engine"
    let engine: CurrentEngine
    public var descriptors: [ControlDescriptor] { Self.standardDescriptors }
    /// Composite addresses: the list address → its toggles' names.
    static let sourceLists: [String: [String]] = [
        "/led/source": LightParameters.sourceNames, "/haptic/source": HapticParameters.sourceNames,
    ]

    public init(_ engine: CurrentEngine) { self.engine = engine }

    /// The descriptors of every engine address (no engine needed: session files are checked
    /// against them before anything plays).
    public static let standardDescriptors: [ControlDescriptor] = {
        let table = Engine.parameterTable
        var out = table.entries.map(\.descriptor)
        for (address, names) in sourceLists.sorted(by: { $0.key < $1.key }) {
            let on = names.filter { (try? table.entry(for: "\(address)/\($0)").descriptor.defaultNumber) == 1 }
            out.append(ControlDescriptor(address, .list(options: names), default: .text(on.isEmpty ? "none" : on.joined(separator: ",")), glide: nil,
                                         "the sources to mix, comma-separated (sets the \(address)/NAME toggles together)"))
        }
        return out
    }()
    private static let byAddress = Dictionary(uniqueKeysWithValues: standardDescriptors.map { ($0.address, $0) })

    public func descriptor(for address: String) -> ControlDescriptor? { Self.byAddress[address] }

    /// Whether `address` is one of the engine's (without an engine at hand).
    public static func owns(_ address: String) -> Bool { byAddress[address] != nil }

    public var schemaTitle: String { "Parameters" }
    public var schemaIntroduction: String {
        """
        The entrainment voices, the master section, beat analysis, light and haptics. Voice 1 lives at
        `/entrain/…`; voices 2–10 have the same eight fields at `/entrain/voice/N/…`, with their level
        defaulting to 0 (off). `/led/source` and `/haptic/source` set their `…/source/NAME` toggles
        together (no argument: a query answering with the list in force).
        """
    }

    public func value(of address: String) -> ControlValue? {
        let host = engine.host
        if let names = Self.sourceLists[address] {
            let on = names.filter { (try? host.valueInForce(of: "\(address)/\($0)")) == 1 }
            return .text(on.isEmpty ? "none" : on.joined(separator: ","))
        }
        guard let entry = try? host.table.entry(for: address) else { return nil }
        return entry.descriptor.value(number: host.valuesInForce[entry.index])  // what plays, not what is scheduled
    }

    public func snapshot() -> [(address: String, value: ControlValue)] { Self.entries(engine.host.valuesInForce) }

    /// Arming the strobe is a decision made each run, never carried in by a preset or a file.
    public func isTransient(_ address: String) -> Bool { StandardAddresses.isTransient(address) || Self.sourceLists[address] != nil }

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        try engine.host.set(try changes.flatMap(Self.engineChanges), at: frame)
    }

    /// The engine's changes one checked change stands for (a source list: its toggles), by
    /// index: the change's slot when it carries one, else the table's lookup.
    static func engineChanges(_ change: ControlChange) throws(ControlError) -> [EngineHost.Change] {
        let table = Engine.parameterTable
        if let names = sourceLists[change.address] {
            let wanted = Set((change.value.text ?? "").split(separator: ",").map(String.init))
            return try names.map { name throws(ControlError) in
                EngineHost.Change(try table.entry(for: "\(change.address)/\(name)").index, wanted.contains(name) ? 1 : 0, glide: change.glide)
            }
        }
        let index: Int
        if let slot = change.slot, table.entries.indices.contains(slot), table.entries[slot].descriptor.address == change.address {
            index = slot
        } else {
            index = try table.entry(for: change.address).index
        }
        let number = try table.entries[index].descriptor.number(change.value)
        return [EngineHost.Change(index, number, glide: change.glide, exponential: change.exponential)]
    }
}
