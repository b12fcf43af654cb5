import EntrainAddressSpace
import EntrainCore
import Synchronization

/// MIDI in as a family of the address space: controllers and notes bound to any address (by a
/// map or by learning: the next controller moved or note played), program changes bound to
/// presets, and unbound notes that set the LED and haptic manual levels.
public final class MIDIFamily: AddressFamily {
    public static let prefix = "/midi/"
    public let name = "midi"

    struct State {
        var map = MIDIControlMap()
        var programs = MIDIProgramMap()
        /// Controllers and notes bound to commands that are held down: a press acts once.
        var pressed: Set<MIDIControlMap.Key> = []
        var learning: MIDIControlMap.Target?
        var notesToLight = true
        var notesToTouch = true
        weak var space: AddressSpace?
    }
    private let held = Mutex(State())

    public init() {}

    /// The space whose addresses controllers move (checked when bound).
    public func attach(_ space: AddressSpace) { held.withLock { $0.space = space } }

    public var descriptors: [ControlDescriptor] { Self.standardDescriptors }

    public static let noteTargets = ["led", "haptic"]
    public static let standardDescriptors: [ControlDescriptor] = [
        ControlDescriptor(prefix + "learn", .text(options: nil), default: .text("none"), glide: nil,
                          "bind the next MIDI controller moved or note played on midi_in to this address, with the name a command that takes one is pressed with (/haptic/pattern heartbeat); none: stop learning"),
        ControlDescriptor(prefix + "map", .text(options: nil), default: .text("none"), glide: nil,
                          "controllers and notes bound to addresses, like 1:7=/entrain/volume,1:64=/panic,10:note36=/haptic/pattern heartbeat (channel:controller=address, channel:noteN=address; a command that takes a name gets it after a space); none: no bindings"),
        ControlDescriptor(prefix + "programs", .text(options: nil), default: .text("none"), glide: nil,
                          "program changes bound to presets, like 1:0=calm,1:5=deep focus (channel:program=preset name): that program change loads the preset as /preset/load does; none: no bindings"),
        ControlDescriptor(prefix + "notes", .list(options: noteTargets), default: .text("led,haptic"), glide: nil,
                          "what notes on midi_in that /midi/map does not bind drive: led sets /led/manual, haptic /haptic/intensity, to the velocity (0 at note-off)"),
    ]
    private static let byAddress = Dictionary(uniqueKeysWithValues: standardDescriptors.map { ($0.address, $0) })

    public func descriptor(for address: String) -> ControlDescriptor? { Self.byAddress[address] }
    public func isTransient(_ address: String) -> Bool { address == Self.prefix + "learn" }
    public var schemaTitle: String { "MIDI in" }
    public var schemaIntroduction: String {
        """
        Only with `--midi-in` (the midi_in JACK port; docs/rig-outputs.md). A controller's 0–127 moves its address like a \
        fader over its range; a bound note's velocity sets it (its note-off leaves it). A controller or note bound to a \
        command (`/midi/map 1:64=/panic`: a foot switch; `10:note36=/session/play`: a pad) is its button: a controller \
        crossing up to 64 or more, or the note-on, presses it; falling below 64, or the note-off, releases it (ignored, but \
        `/panic` acts on both). A command that takes a name is bound with it: `10:note38=/haptic/pattern heartbeat` plays \
        the pattern, `1:note60=/preset/load calm` loads the preset. Commands that take other arguments, or are a person's \
        decision (arming the strobe), cannot be bound. `/midi/learn` binds the next controller moved or note played. The \
        bindings are values: presets, the last-used settings and NSM save them; loading a preset adds its bindings to \
        the ones in force and takes none away (a playlist's steps leave them alone).
        """
    }

    public func value(of address: String) -> ControlValue? {
        let s = held.withLock { ($0.map, $0.learning, $0.notesToLight, $0.notesToTouch, $0.programs) }
        switch address.dropFirst(Self.prefix.count) {
        case "learn": return .text(s.1?.description ?? "none")
        case "map": return .text(s.0.description)
        case "programs": return .text(s.4.description)
        case "notes":
            let on = [s.2 ? "led" : nil, s.3 ? "haptic" : nil].compactMap { $0 }
            return .text(on.isEmpty ? "none" : on.joined(separator: ","))
        default: return nil
        }
    }

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        var next = held.withLock { $0 }
        let lookup: (String) -> ControlDescriptor? = { [space = next.space] in space?.lookup($0)?.descriptor ?? StandardAddresses.descriptor(for: $0) }
        for change in changes {
            switch (change.address.dropFirst(Self.prefix.count), change.value) {
            case ("learn", .text(let target)):
                if target == "none" || target.isEmpty { next.learning = nil; continue }
                try MappingTargets.check(change, in: lookup)
                next.learning = MIDIControlMap.Target(parsing: target)
            case ("map", .text(let text)):
                let map = try MIDIControlMap(parsing: text)
                try MappingTargets.check(change, in: lookup)
                next.map = map
                next.pressed = []
            case ("programs", .text(let text)):
                next.programs = try MIDIProgramMap(parsing: text)
            case ("notes", .text(let text)):
                next.notesToLight = text.contains("led")
                next.notesToTouch = text.contains("haptic")
            default: throw ControlError.unknown(change.address)
            }
        }
        held.withLock { $0 = next }
    }

    /// A preset's bindings over `current` (the ones in force): both kept, the preset's winning
    /// where both bind the same controller, note or program. Any other change passes unchanged.
    public static func addingBindings(_ change: ControlChange, to current: ControlValue?) -> ControlChange {
        let notes: Bool
        switch change.address {
        case prefix + "map": notes = true
        case prefix + "programs": notes = false
        default: return change
        }
        guard let loaded = change.value.text, let current = current?.text,
              let merged = MIDIBindingList.merging(loaded, over: current, at: change.address, notes: notes) else { return change }
        return ControlChange(change.address, .text(merged), glide: change.glide)
    }

    /// What one incoming message does: values it changes, commands it presses (a controller
    /// bound to a command, a program change bound to a preset), and the binding it made, if any.
    public struct Outcome {
        public var changes: [ControlChange] = []
        public var calls: [(address: String, arguments: [OSCValue])] = []
        public var learned: String?
    }

    public func outcome(of event: MIDIInEvent) -> Outcome {
        let status = event.b0 & 0xF0, channel = Int(event.b0 & 0x0F)
        return held.withLock { s in
            var out = Outcome()
            switch status {
            case 0xB0 where event.size == 3:
                let key = MIDIControlMap.Key(channel: channel, number: Int(event.b1 & 0x7F))
                let level = Int(event.b2 & 0x7F)
                Self.learn(key, in: &s, into: &out)
                guard let target = s.map.bindings[key] else { return out }
                Self.drive(target, key: key, down: level >= 64, level: level, in: &s, into: &out)
            case 0xC0 where event.size >= 2:
                if let preset = s.programs.bindings[.init(channel: channel, number: Int(event.b1 & 0x7F))] {
                    out.calls = [("/preset/load", [.string(preset)])]
                }
            case 0x90 where event.size == 3, 0x80 where event.size == 3:
                // A note-on of velocity 0 is a note-off (running status keyboards send them).
                let key = MIDIControlMap.Key(channel: channel, number: Int(event.b1 & 0x7F), isNote: true)
                let velocity = status == 0x90 ? Int(event.b2 & 0x7F) : 0
                if velocity > 0 { Self.learn(key, in: &s, into: &out) }
                if let target = s.map.bindings[key] {
                    Self.drive(target, key: key, down: velocity > 0, level: velocity > 0 ? velocity : nil, in: &s, into: &out)
                    return out
                }
                let level = Double(velocity) / 127
                if s.notesToLight { out.changes.append(ControlChange("/led/manual", .number(level), glide: 0)) }
                if s.notesToTouch { out.changes.append(ControlChange("/haptic/intensity", .number(level), glide: 0)) }
            default: break
            }
            return out
        }
    }

    /// While learning, `key` takes the target learnt.
    private static func learn(_ key: MIDIControlMap.Key, in s: inout State, into out: inout Outcome) {
        guard let target = s.learning else { return }
        s.map.bindings[key] = target
        s.learning = nil
        out.learned = "\(key)=\(target)"
    }

    /// What a bound controller or note does: a command is a button pressed on the edge (so a
    /// controller repeating 127 presses once); a value follows `level` (0…127; nil: unchanged).
    private static func drive(_ target: MIDIControlMap.Target, key: MIDIControlMap.Key, down: Bool, level: Int?,
                              in s: inout State, into out: inout Outcome) {
        if s.space?.command(target.address) != nil {
            guard down != s.pressed.contains(key) else { return }
            if down { s.pressed.insert(key) } else { s.pressed.remove(key) }
            if let name = target.argument {
                if down { out.calls = [(target.address, [.string(name)])] }  // the release does nothing
            } else {
                out.calls = [(target.address, [down ? .true : .false])]
            }
            return
        }
        guard let level, let descriptor = s.space?.lookup(target.address)?.descriptor,
              let value = try? descriptor.value(fromNormalized: Double(level) / 127) else { return }
        out.changes = [ControlChange(target.address, value, glide: 0)]
    }
}
