import EntrainAddressSpace

/// The addresses a change binds a source to — HRV mappings and the breathing pacer's targets,
/// MIDI controller bindings and learning — and the one rule they obey, whichever door the change
/// came through (OSC, a session's "set" block, a preset, the last-used settings, NSM state): a
/// target must move like a fader, and never be a person's decision (arming the strobe), or a
/// heart rate or a knob would make that decision instead.
public enum MappingTargets {
    /// The targets `change` names, with what would drive them (for the error).
    static func targets(of change: ControlChange) -> (addresses: [String], source: String) {
        if HRVFamily.owns(change.address) { return (HRVMapping.targets(of: change), "an HRV mapping") }
        guard let text = change.value.text else { return ([], "") }
        switch change.address {
        case MIDIFamily.prefix + "map":
            return (((try? MIDIControlMap(parsing: text))?.bindings.values).map(Array.init) ?? [], "a MIDI controller")
        case MIDIFamily.prefix + "learn":
            return (text == "none" || text.isEmpty ? [] : [text], "a MIDI controller")
        default: return ([], "")
        }
    }

    /// Refuses `change` when a target it names may not follow a source. `lookup` finds the
    /// client's descriptors; an address it does not know is refused, but for a plugin's control
    /// when `pluginsKnown` is false (a file read before its plugins load: the running client checks).
    public static func check(_ change: ControlChange, in lookup: (String) -> ControlDescriptor?, pluginsKnown: Bool = true) throws(ControlError) {
        let (addresses, source) = targets(of: change)
        for address in addresses {
            if HRVFamily.owns(address) { throw ControlError(address, "an HRV address cannot be a mapping target") }
            guard let descriptor = lookup(address) else {
                if pluginsKnown || !address.hasPrefix(FxChainAddresses.prefix) { throw ControlError.unknown(address) }
                continue
            }
            try descriptor.checkMappable(by: source)
        }
    }
}
