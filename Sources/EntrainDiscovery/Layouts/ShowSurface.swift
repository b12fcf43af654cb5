import EntrainAddressSpace

/// What a controller's show page holds, for every generated layout (TouchOSC, Open Stage
/// Control): the values and readouts a show watches, the timer's presets, and the loaders (the
/// commands that load or play something stored by name), where the space has them.
public enum ShowSurface {
    /// Values to set during a show.
    static let values = ["/entrain/volume", "/ambient/masterVolume", "/entrain/mode", "/entrain/carrier", "/entrain/beat", "/link/tempo"]
    /// Read-only values of the space a show watches.
    static let readouts = ["/hrv/hr", "/hrv/breath", "/hrv/coherence", "/link/peers"]
    /// Published messages (not values of the space) a show wants to see: sent to subscribers.
    public static let published = ["/beat/bpm", "/beat/confidence", "/session/state", "/session/remaining", "/timer/remaining"]
    /// One press sets the timer to this many minutes (the control page's buttons are the same).
    static let timerMinutes = ["10", "20", "30", "60"]

    /// The commands a show presses (play, stop, resume, the session transport, …): every pressable
    /// one but PANIC (a surface gives it a place of its own) and the MIDI bindings (set-up, not show).
    static func pressed(_ space: AddressSpace) -> [CommandDescriptor] {
        space.families.flatMap(\.commands).filter { $0.pressable && $0.address != "/panic" && !$0.address.hasPrefix("/midi/") }
    }

    /// Commands that load or play one stored thing by its name (`/preset/load s:name`, anything
    /// after the name optional): a surface gives each a field or a list. Saving, renaming and
    /// deleting are not show controls.
    static func loaders(_ space: AddressSpace) -> [CommandDescriptor] {
        space.families.flatMap(\.commands).filter { command in
            guard let name = command.arguments.first else { return false }
            return command.readsFiles && !command.personOnly && name.tags == "s" && name.catalog != nil && !name.optional
                && command.arguments.dropFirst().allSatisfy(\.optional)
        }
    }
}
