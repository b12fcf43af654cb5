import EntrainAddressSpace
import Synchronization

/// One pixel output of the rig as a family of the address space: `/pixels/NAME/…`.
public final class PixelFamily: AddressFamily {
    public let spec: PixelOutputSpec
    public var name: String { "pixels/" + spec.name }
    private let prefix: String
    /// The settings in force, and changes a session sent ahead of time (it feeds a second ahead)
    /// waiting for the frame they are for.
    private let held: Mutex<(now: PixelSettings, due: [(frame: Int64, changes: [ControlChange])], glides: PixelGlides)>
    /// More waiting than a session ever sends in its second ahead: the oldest are applied at once.
    static let maximumDue = 256
    public let descriptors: [ControlDescriptor]
    private let byAddress: [String: ControlDescriptor]

    public init(_ spec: PixelOutputSpec) {
        self.spec = spec
        prefix = PixelAddresses.prefix + spec.name + "/"
        held = Mutex((PixelSettings(), [], PixelGlides()))
        descriptors = PixelAddresses.descriptors(name: spec.name)
        byAddress = Dictionary(uniqueKeysWithValues: descriptors.map { ($0.address, $0) })
    }

    /// The settings as the latest changes leave them, those still waiting for their frame included
    /// (what OSC reads back and a preset saves).
    public var settings: PixelSettings {
        held.withLock { state in state.due.reduce(state.now) { s, d in (try? Self.apply(d.changes, to: s, prefix: prefix)) ?? s } }
    }

    /// The settings for the frame being shown (an engine frame): the changes due by then are
    /// applied first, and a change with a glide (a stage's transition) slides there from what was shown.
    public func settings(at frame: Int64, sampleRate: Double) -> PixelSettings {
        held.withLock { state in
            while let first = state.due.first, first.frame <= frame {
                let shown = state.glides.shown(state.now, at: first.frame, sampleRate: sampleRate)
                for change in first.changes {
                    let key = String(change.address.dropFirst(prefix.count))
                    if let path = PixelGlides.settings[key], let glide = change.glide, glide > 0, case .number(let to) = change.value {
                        state.glides.begin(key, from: shown[keyPath: path], to: to, at: first.frame, seconds: glide)
                    } else {
                        state.glides.stop(key)
                    }
                }
                state.now = (try? Self.apply(first.changes, to: state.now, prefix: prefix)) ?? state.now
                state.due.removeFirst()
            }
            return state.glides.shown(state.now, at: frame, sampleRate: sampleRate)
        }
    }

    public func descriptor(for address: String) -> ControlDescriptor? { byAddress[address] }
    public var schemaTitle: String { "Pixels (\(spec.name))" }
    public var schemaIntroduction: String {
        """
        One family per output of the rig file given with `--pixels FILE` (docs/pixels.md): LED strips and matrices over \
        DDP, sACN or Art-Net at a steady 10–60 frames a second. Every frame passes the flash safety whatever the effect: \
        while `/led/arm` is off no channel of a pixel turns by more than 8/255 more than 6 times a second (3 flashes); \
        armed, at most a quarter of an output's pixels may flash faster at once. Black from the next frame on `/panic`, \
        black frames on exit.
        """
    }

    /// The schema's rows, with NAME for an output's name.
    public static let placeholder = PixelFamily(PixelOutputSpec(name: "NAME", pixels: 1, layout: .strip, width: 1, serpentine: false, wire: .ddp,
                                                                address: SocketAddress(ip: 0, port: 0), universe: 1, order: [0, 1, 2], rate: 50))

    public func value(of address: String) -> ControlValue? {
        guard address.hasPrefix(prefix) else { return nil }
        let s = settings
        switch address.dropFirst(prefix.count) {
        case "effect": return .text(s.effect.rawValue)
        case "palette": return .text(Palette.names[s.palette])
        case "brightness": return .number(s.brightness)
        case "speed": return .number(s.speed)
        case "blend": return .number(s.blend)
        case "offset": return .number(s.offsetMilliseconds)
        default: return nil
        }
    }

    /// Changes for a frame (a session's stage) wait for the frame to be shown; the others apply now.
    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        _ = try Self.apply(changes, to: settings, prefix: prefix)  // refused whole if one is wrong
        held.withLock { state in
            guard let frame else {
                state.now = (try? Self.apply(changes, to: state.now, prefix: prefix)) ?? state.now
                for change in changes { state.glides.stop(String(change.address.dropFirst(prefix.count))) }
                return
            }
            let at = state.due.firstIndex { $0.frame > frame } ?? state.due.count
            state.due.insert((frame, changes), at: at)
            if state.due.count > Self.maximumDue {
                state.now = (try? Self.apply(state.due[0].changes, to: state.now, prefix: prefix)) ?? state.now
                state.due.removeFirst()
            }
        }
    }

    private static func apply(_ changes: [ControlChange], to settings: PixelSettings, prefix: String) throws -> PixelSettings {
        var next = settings
        for change in changes {
            guard change.address.hasPrefix(prefix) else { throw ControlError.unknown(change.address) }
            switch (change.address.dropFirst(prefix.count), change.value) {
            case ("effect", .text(let t)):
                guard let e = PixelSettings.Effect(rawValue: t) else { throw ControlError(change.address, "unknown effect '\(t)'") }
                next.effect = e
            case ("palette", .text(let t)):
                guard let i = Palette.names.firstIndex(of: t) else { throw ControlError(change.address, "unknown palette '\(t)'") }
                next.palette = i
            case ("brightness", .number(let n)): next.brightness = n
            case ("speed", .number(let n)): next.speed = n
            case ("blend", .number(let n)): next.blend = n
            case ("offset", .number(let n)): next.offsetMilliseconds = n
            default: throw ControlError.unknown(change.address)
            }
        }
        return next
    }
}
