import EntrainAddressSpace
import Synchronization

/// One pixel output of the rig as a family of the address space: `/pixels/NAME/…`.
public final class PixelFamily: AddressFamily {
    public let spec: PixelOutputSpec
    public var name: String { "pixels/" + spec.name }
    private let prefix: String
    private let held: Mutex<PixelSettings>
    public let descriptors: [ControlDescriptor]
    private let byAddress: [String: ControlDescriptor]

    public init(_ spec: PixelOutputSpec) {
        self.spec = spec
        prefix = PixelAddresses.prefix + spec.name + "/"
        held = Mutex(PixelSettings())
        descriptors = PixelAddresses.descriptors(name: spec.name)
        byAddress = Dictionary(uniqueKeysWithValues: descriptors.map { ($0.address, $0) })
    }

    /// The settings now (the sender reads them every frame).
    public var settings: PixelSettings { held.withLock { $0 } }

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

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
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
        held.withLock { $0 = next }
    }
}
