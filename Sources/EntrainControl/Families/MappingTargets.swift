import EntrainAddressSpace

/// The addresses a change binds a source to — HRV mappings and the breathing pacer's targets,
/// MIDI controller bindings and learning — and the one rule they obey, whichever door the change
/// came through (OSC, a session's "set" block, a preset, the last-used settings, NSM state): a
/// target must move like a fader, and never be a person's decision (arming the strobe), or a
/// heart rate or a knob would make that decision instead.
public enum MappingTargets {
    /// The targets `change` names, with what would drive them (for the error) and whether they
    /// may be commands a press triggers (a MIDI controller's button may; an HRV metric steers values).
    static func targets(of change: ControlChange) -> (addresses: [String], source: String, presses: Bool) {
        if HRVFamily.owns(change.address) { return (HRVMapping.targets(of: change), "an HRV mapping", false) }
        guard let text = change.value.text else { return ([], "", false) }
        switch change.address {
        case MIDIFamily.prefix + "map":
            return (((try? MIDIControlMap(parsing: text))?.bindings.values).map(Array.init) ?? [], "a MIDI controller", true)
        case MIDIFamily.prefix + "learn":
            return (text == "none" || text.isEmpty ? [] : [text], "a MIDI controller", true)
        default: return ([], "", false)
        }
    }

    /// Refuses `change` when a target it names may not follow a source. `lookup` finds the
    /// client's descriptors; an address it does not know is refused, but for a plugin's control
    /// when `pluginsKnown` is false (a file read before its plugins load: the running client checks).
    /// A command is a target only for a button (a MIDI controller), and only one a press triggers.
    public static func check(_ change: ControlChange, in lookup: (String) -> ControlDescriptor?, pluginsKnown: Bool = true) throws(ControlError) {
        let (addresses, source, presses) = targets(of: change)
        for address in addresses {
            if HRVFamily.owns(address) { throw ControlError(address, "an HRV address cannot be a mapping target") }
            if let command = StandardAddresses.command(address) {
                guard presses else { throw ControlError(address, "is a command: it cannot follow \(source)") }
                try command.checkPressable(by: source)
                continue
            }
            guard let descriptor = lookup(address) else {
                if pluginsKnown || !address.hasPrefix(FxChainAddresses.prefix) { throw ControlError.unknown(address) }
                continue
            }
            try descriptor.checkMappable(by: source)
        }
    }
}

extension CommandDescriptor {
    /// Whether a button (`what` in the error) may trigger it: it takes a press and is not a person's decision.
    func checkPressable(by what: String) throws(ControlError) {
        if personOnly { throw ControlError(address, "only a person may do this: it cannot follow \(what)") }
        guard pressable else { throw ControlError(address, "takes arguments a button cannot send: it cannot follow \(what)") }
    }
}
