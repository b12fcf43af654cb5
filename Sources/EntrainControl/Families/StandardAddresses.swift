import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Kessho

/// The addresses of the families every client has from the start (the engine's parameters and
/// the Kessho keys), known without a running engine: files and the command line are checked
/// against them before anything plays, with the same rules as OSC.
public enum StandardAddresses {
    public static let space: [ControlDescriptor] = EngineFamily.standardDescriptors + AmbientFamily.standardDescriptors
    private static let byAddress = Dictionary(uniqueKeysWithValues: space.map { ($0.address, $0) })

    public static func descriptor(for address: String) -> ControlDescriptor? { byAddress[address] }

    /// `given` for `address`, checked.
    public static func parse(_ address: String, _ given: ControlValue) throws(ControlError) -> ControlChange {
        guard let descriptor = byAddress[address] else { throw .unknown(address) }
        return ControlChange(address, try descriptor.parse(given))
    }
}

extension EngineFamily {
    /// `values` with the engine's own changes among `changes` written in (a start-up state:
    /// nothing plays yet). Others' changes are left for their families.
    public static func fold(_ changes: [ControlChange], into values: ParameterValues) throws -> ParameterValues {
        let table = Engine.parameterTable
        var out = values
        for change in changes {
            if let names = sourceLists[change.address] {
                let wanted = Set((change.value.text ?? "").split(separator: ",").map(String.init))
                for name in names { out[try table.entry(for: "\(change.address)/\(name)").index] = wanted.contains(name) ? 1 : 0 }
            } else if let entry = try? table.entry(for: change.address) {
                out[entry.index] = try number(change.value, entry.spec)
            }
        }
        return out
    }
}

extension AmbientFamily {
    /// The Kessho keys among `changes`, as the conductor's state takes them (a start-up state).
    public static func keyed(_ changes: [ControlChange]) -> [(key: String, value: KesshoValue)] {
        changes.filter { ambientAddress($0.address) }
            .map { (String($0.address.dropFirst(prefix.count)), kesshoValue($0.value)) }
    }
}

