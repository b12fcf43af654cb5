/// Where a change comes from. Some values are a person's decision (arming the strobe: flashing
/// light can trigger seizures), so only a person's direct control may set them — never a file, a
/// mapping or a schedule, whatever address or indirection they use. The address space checks the
/// door against the descriptor (`ControlDescriptor.personOnly`) for every change.
public enum ChangeDoor: String, Sendable, Equatable, CustomStringConvertible {
    /// OSC from an allowed sender, the control page of our own origin, the command line, `entrain ctl`.
    case person
    /// A session, preset, playlist, the last-used settings, NSM state.
    case file
    /// A mapping or binding: HRV mappings, the breathing pacer, MIDI controllers and notes.
    case mapping
    /// A time-tagged bundle or anything else planned ahead to happen later.
    case schedule

    public var description: String {
        switch self {
        case .person: "a person"
        case .file: "a file"
        case .mapping: "a mapping"
        case .schedule: "a schedule"
        }
    }
}

extension ControlDescriptor {
    /// Refuses a change through `door` that only a person may make.
    public func check(door: ChangeDoor) throws(ControlError) {
        guard personOnly, door != .person else { return }
        throw ControlError(address, "only a person may set this (never \(door)): it is a decision made each run")
    }

    /// Whether this address may follow a fader-like source (an HRV metric, the pacer, a MIDI
    /// controller, `what` in the error): settable, ranged, and not a person's decision.
    public func checkMappable(by what: String) throws(ControlError) {
        if personOnly { throw ControlError(address, "only a person may set this: it cannot follow \(what)") }
        guard (try? value(fromNormalized: 0)) != nil else {
            throw ControlError(address, "cannot follow \(what) (only settable ranged numbers, toggles and choices can)")
        }
    }
}
