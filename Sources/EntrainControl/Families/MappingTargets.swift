import EntrainAddressSpace
import EntrainLV2

/// The addresses a change binds a source to — HRV mappings and the breathing pacer's targets,
/// MIDI controller bindings and learning — and the one rule they obey, whichever door the change
/// came through (OSC, a session's "set" block, a preset, the last-used settings, NSM state): a
/// target must move like a fader, and never be a person's decision (arming the strobe), or a
/// heart rate or a knob would make that decision instead.
public enum MappingTargets {
    /// The targets `change` names, with what would drive them (for the error) and whether they
    /// may be commands a press triggers (a MIDI controller's button may; an HRV metric steers values).
    /// A MIDI binding may also name the one name a command is pressed with (`/haptic/pattern heartbeat`).
    static func targets(of change: ControlChange) -> (targets: [MIDIControlMap.Target], source: String, presses: Bool) {
        if HRVFamily.owns(change.address) {
            return (HRVMapping.targets(of: change).map { MIDIControlMap.Target(parsing: $0) }, "an HRV mapping", false)
        }
        guard let text = change.value.text else { return ([], "", false) }
        switch change.address {
        case MIDIFamily.prefix + "map":
            return (((try? MIDIControlMap(parsing: text))?.bindings.values).map(Array.init) ?? [], "a MIDI controller", true)
        case MIDIFamily.prefix + "learn":
            return (text == "none" || text.isEmpty ? [] : [MIDIControlMap.Target(parsing: text)], "a MIDI controller", true)
        default: return ([], "", false)
        }
    }

    /// Refuses `change` when a target it names may not follow a source. `lookup` finds the
    /// client's descriptors; an address it does not know is refused, but for a plugin's control
    /// when `pluginsKnown` is false (a file read before its plugins load: the running client checks).
    /// A command is a target only for a button (a MIDI controller), and only one a press triggers.
    public static func check(_ change: ControlChange, in lookup: (String) -> ControlDescriptor?, pluginsKnown: Bool = true) throws(ControlError) {
        let (targets, source, presses) = targets(of: change)
        for target in targets {
            let address = target.address
            if HRVFamily.owns(address) { throw ControlError(address, "an HRV address cannot be a mapping target") }
            if let command = StandardAddresses.command(address) {
                guard presses else { throw ControlError(address, "is a command: it cannot follow \(source)") }
                try command.checkPressable(by: source, naming: target.argument)
                continue
            }
            guard let descriptor = lookup(address) else {
                if pluginsKnown || !address.hasPrefix(FxChainAddresses.prefix) { throw ControlError.unknown(address) }
                continue
            }
            try descriptor.checkMappable(by: source)
            if target.argument != nil { throw ControlError(address, "is a value: a binding names no argument for it") }
        }
    }
}

extension CommandDescriptor {
    /// Whether a button (`what` in the error) may trigger it: it takes a press, or it takes a name
    /// and the binding gives it (`name`); it is not a person's decision, and does more than answer.
    func checkPressable(by what: String, naming name: String? = nil) throws(ControlError) {
        if personOnly { throw ControlError(address, "only a person may do this: it cannot follow \(what)") }
        if answersOnly { throw ControlError(address, "only answers the sender: there is nothing for \(what) to press") }
        guard let name else {
            guard pressable else { throw ControlError(address, "takes arguments a button cannot send: it cannot follow \(what)") }
            return
        }
        guard takesOneName else { throw ControlError(address, "does not load or play something by one name: '\(name)' cannot be bound with it") }
    }

    /// It loads or plays something by name — reads a file named by its first argument, a required
    /// string, any others optional (`/haptic/pattern s:name`, `/preset/load s:name [f:glide]`): a
    /// button can press it with a name its binding fixes. Saving, renaming and deleting by a
    /// button are refused (a preset file's binding must not cost a user their presets).
    var takesOneName: Bool {
        guard readsFiles, let first = arguments.first, !first.optional, first.tags.contains("s") else { return false }
        return arguments.dropFirst().allSatisfy(\.optional)
    }
}
