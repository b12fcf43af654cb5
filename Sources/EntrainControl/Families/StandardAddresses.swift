import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import EntrainLV2

/// The addresses of the families every client has from the start (the engine's parameters,
/// the Kessho keys and HRV's), known without a running engine: files and the command line are checked
/// against them before anything plays, with the same rules as OSC.
public enum StandardAddresses {
    public static let space: [ControlDescriptor] = EngineFamily.standardDescriptors + AmbientFamily.standardDescriptors + HRVFamily.standardDescriptors
        + FxChainAddresses.standardDescriptors
        + DMXFamily.standardDescriptors + MIDIFamily.standardDescriptors + LinkFamily.standardDescriptors
    private static let byAddress = Dictionary(uniqueKeysWithValues: space.map { ($0.address, $0) })

    /// A pixel output's addresses (`/pixels/NAME/…`) are known for any NAME: the rig is read later.
    public static func descriptor(for address: String) -> ControlDescriptor? { byAddress[address] ?? PixelAddresses.descriptor(for: address) }

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
        guard let descriptor = Self.descriptor(for: address) else { throw .unknown(address) }
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
        var out = values
        for change in changes where owns(change.address) {
            for engineChange in try engineChanges(change) { out[engineChange.index] = engineChange.value }
        }
        return out
    }

    /// The engine's values as entries of the address space (choices by name, toggles as true/false).
    public static func entries(_ values: ParameterValues) -> [(address: String, value: ControlValue)] {
        Engine.parameterTable.entries.map { ($0.descriptor.address, $0.descriptor.value(number: values[$0.index])) }
    }

    /// A change of an engine parameter given as the engine's number (a program's, an index for
    /// a choice), as the address space takes it; nil for an address the engine does not have.
    public static func change(_ address: String, number: Double, glide: Double? = nil, exponential: Bool? = nil) -> ControlChange? {
        guard let descriptor = try? Engine.parameterTable.entry(for: address).descriptor else { return nil }
        return ControlChange(address, descriptor.value(number: number), glide: glide, exponential: exponential, slot: descriptor.slot)
    }

    /// The parameter values one engine change stands for (a source list: its toggles); none
    /// for another family's change.
    public static func numbers(_ change: ControlChange) throws -> [(address: String, value: Double)] {
        guard owns(change.address) else { return [] }
        let table = Engine.parameterTable
        return try engineChanges(change).map { (table.entries[$0.index].descriptor.address, $0.value) }
    }
}
