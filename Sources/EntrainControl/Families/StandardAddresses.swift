import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Kessho

/// The addresses of the families every client has from the start (the engine's parameters,
/// the Kessho keys and HRV's), known without a running engine: files and the command line are checked
/// against them before anything plays, with the same rules as OSC.
public enum StandardAddresses {
    public static let space: [ControlDescriptor] = EngineFamily.standardDescriptors + AmbientFamily.standardDescriptors + HRVFamily.standardDescriptors
        + FxChainAddresses.standardDescriptors
        + DMXFamily.standardDescriptors + MIDIFamily.standardDescriptors + LinkFamily.standardDescriptors
    private static let byAddress = Dictionary(uniqueKeysWithValues: space.map { ($0.address, $0) })

    public static func descriptor(for address: String) -> ControlDescriptor? { byAddress[address] }

    /// The commands of those families and the client's (plugin chains' included).
    public static let commands: [CommandDescriptor] = ClientFamily.standardCommands + AmbientController.declarations.map(\.descriptor)
        + HRVController.declarations.map(\.descriptor)
    private static let commandsByAddress = Dictionary(uniqueKeysWithValues: commands.map { ($0.address, $0) })

    public static func command(_ address: String) -> CommandDescriptor? { commandsByAddress[address] }

    /// Never carried by a preset, the last-used settings or a file: a person's decision (arming the
    /// strobe), the drift position (the engine's), the ambient reverb's structure (the listener's,
    /// fixed at start), and the Kessho keys nothing renders (older files name them).
    public static func isTransient(_ address: String) -> Bool {
        transient.contains(address) || byAddress[address]?.personOnly == true || AmbientFamily.isUnaddressed(address)
    }
    static let transient: Set<String> = [AmbientFamily.prefix + "cofCurrentStep", AmbientFamily.prefix + "reverbQuality",
                                          DMXFamily.prefix + "universe", MIDIFamily.prefix + "learn",
                                          LinkFamily.prefix + "peers", LinkFamily.prefix + "tempo"]

    /// `given` for `address`, checked as arriving through `door` (a file or the command line):
    /// its value, and the targets of a mapping it sets (a plugin's control, not known before the
    /// plugin loads, is left to the running client).
    public static func parse(_ address: String, _ given: ControlValue, from door: ChangeDoor) throws(ControlError) -> ControlChange {
        guard let descriptor = byAddress[address] else { throw .unknown(address) }
        try descriptor.check(door: door)
        let change = ControlChange(address, try descriptor.parse(given))
        try MappingTargets.check(change, in: Self.descriptor, pluginsKnown: false)
        return change
    }
}

extension EngineFamily {
    /// `values` with the engine's own changes among `changes` written in (a start-up state:
    /// nothing plays yet). Others' changes are left for their families.
    public static func fold(_ changes: [ControlChange], into values: ParameterValues) throws -> ParameterValues {
        let table = Engine.parameterTable
        var out = values
        for change in changes {
            for (address, number) in try numbers(change) { out[try table.entry(for: address).index] = number }
        }
        return out
    }

    /// The engine's values as entries of the address space (choices by name, toggles as true/false).
    public static func entries(_ values: ParameterValues) -> [(address: String, value: ControlValue)] {
        Engine.parameterTable.entries.map { ($0.spec.address, controlValue(values[$0.index], $0.spec)) }
    }

    /// The parameter values one engine change stands for (a source list: its four toggles);
    /// none for another family's change.
    public static func numbers(_ change: ControlChange) throws -> [(address: String, value: Double)] {
        if let names = sourceLists[change.address] {
            let wanted = Set((change.value.text ?? "").split(separator: ",").map(String.init))
            return names.map { ("\(change.address)/\($0)", wanted.contains($0) ? 1 : 0) }
        }
        guard let entry = try? Engine.parameterTable.entry(for: change.address) else { return [] }
        return [(change.address, try number(change.value, entry.spec))]
    }
}

extension AmbientFamily {
    /// The Kessho keys among `changes`, as the conductor's state takes them (a start-up state).
    public static func keyed(_ changes: [ControlChange]) -> [(key: String, value: KesshoValue)] {
        changes.filter { owns($0.address) }
            .map { (String($0.address.dropFirst(prefix.count)), kesshoValue($0.value)) }
    }
}

