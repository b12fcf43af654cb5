import EntrainAddressSpace
import EntrainCore
import Synchronization

/// MIDI in as a family of the address space: controllers bound to any address (by a map or by
/// learning: the next controller moved), and notes that set the LED and haptic manual levels.
public final class MIDIFamily: AddressFamily {
    public static let prefix = "/midi/"
    public let name = "midi"

    struct State {
        var map = MIDIControlMap()
        var programs = MIDIProgramMap()
        /// Controllers bound to commands that are held down (≥ 64): a press acts once.
        var pressed: Set<MIDIControlMap.Key> = []
        var learning: String?
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
                          "bind the next MIDI controller moved on midi_in to this address (none: stop learning)"),
        ControlDescriptor(prefix + "map", .text(options: nil), default: .text("none"), glide: nil,
                          "controllers bound to addresses, like 1:7=/entrain/volume,10:20=/led/level (channel:controller=address); none: no bindings"),
        ControlDescriptor(prefix + "programs", .text(options: nil), default: .text("none"), glide: nil,
                          "program changes bound to presets, like 1:0=calm,1:5=deep focus (channel:program=preset name): that program change loads the preset as /preset/load does; none: no bindings"),
        ControlDescriptor(prefix + "notes", .list(options: noteTargets), default: .text("led,haptic"), glide: nil,
                          "what notes on midi_in drive: led sets /led/manual, haptic /haptic/intensity, to the velocity (0 at note-off)"),
    ]
    private static let byAddress = Dictionary(uniqueKeysWithValues: standardDescriptors.map { ($0.address, $0) })

    public func descriptor(for address: String) -> ControlDescriptor? { Self.byAddress[address] }
    public func isTransient(_ address: String) -> Bool { address == Self.prefix + "learn" }
    public var schemaTitle: String { "MIDI in" }
    public var schemaIntroduction: String {
        """
        Only with `--midi-in` (the midi_in JACK port; docs/rig-outputs.md). A controller's 0–127 moves its address like a \
        fader over its range. A controller bound to a command (`/midi/map 1:64=/panic`: a foot switch) is its button: \
        crossing up to 64 or more presses it, falling below 64 releases it (ignored, but `/panic` acts on both); commands \
        that take other arguments, or are a person's decision, cannot be bound.
        """
    }

    public func value(of address: String) -> ControlValue? {
        let s = held.withLock { ($0.map, $0.learning, $0.notesToLight, $0.notesToTouch, $0.programs) }
        switch address.dropFirst(Self.prefix.count) {
        case "learn": return .text(s.1 ?? "none")
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
                next.learning = target
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
                let key = MIDIControlMap.Key(channel: channel, controller: Int(event.b1 & 0x7F))
                if let target = s.learning {
                    s.map.bindings[key] = target
                    s.learning = nil
                    out.learned = "\(channel + 1):\(key.controller)=\(target)"
                }
                guard let address = s.map.bindings[key] else { return out }
                let level = Int(event.b2 & 0x7F)
                if s.space?.command(address) != nil {
                    // A button: act on the edge, so a controller repeating 127 presses once.
                    let down = level >= 64
                    guard down != s.pressed.contains(key) else { return out }
                    if down { s.pressed.insert(key) } else { s.pressed.remove(key) }
                    out.calls = [(address, [down ? .true : .false])]
                    return out
                }
                guard let descriptor = s.space?.lookup(address)?.descriptor,
                      let value = try? descriptor.value(fromNormalized: Double(level) / 127) else { return out }
                out.changes = [ControlChange(address, value, glide: 0)]
            case 0xC0 where event.size >= 2:
                if let preset = s.programs.bindings[.init(channel: channel, controller: Int(event.b1 & 0x7F))] {
                    out.calls = [("/preset/load", [.string(preset)])]
                }
            case 0x90, 0x80:
                let level = status == 0x90 ? Double(event.b2 & 0x7F) / 127 : 0
                if s.notesToLight { out.changes.append(ControlChange("/led/manual", .number(level), glide: 0)) }
                if s.notesToTouch { out.changes.append(ControlChange("/haptic/intensity", .number(level), glide: 0)) }
            default: break
            }
            return out
        }
    }
}
