import EntrainAddressSpace
import Synchronization

/// DMX to fixtures (Art-Net, sACN) as a family of the address space: the channel map, the
/// refresh, the offset and the priority; the universe is published (it is chosen at start).
public final class DMXFamily: AddressFamily {
    public static let prefix = "/dmx/"
    public let name = "dmx"
    private let held: Mutex<DMXSettings>

    public init(_ settings: DMXSettings = DMXSettings()) { held = Mutex(settings) }

    /// The settings now (the senders read this every frame).
    public var settings: DMXSettings { held.withLock { $0 } }

    public var descriptors: [ControlDescriptor] { Self.standardDescriptors }

    public static let standardDescriptors: [ControlDescriptor] = [
        ControlDescriptor(prefix + "map", .text(options: nil), default: .text("none"), glide: nil,
                          "which channel shows what, like 1=led,2=led_2*0.5,3=haptic_intensity:16,9=255 (:16 a coarse+fine pair, *gain 0-4, a number a fixed level); none: every channel 0"),
        ControlDescriptor(prefix + "rate", .number(range: DMXSettings.rates, step: nil, curve: .linear, integer: false), unit: "Hz",
                          default: .number(40), glide: nil, "DMX frames per second (steady, from their own thread)"),
        ControlDescriptor(prefix + "offset", .number(range: DMXSettings.offsets, step: nil, curve: .linear, integer: false), unit: "ms",
                          default: .number(0), glide: nil, "extra delay of the DMX light after the CV port's light, for the node's and fixture's own lag (negative: earlier)"),
        ControlDescriptor(prefix + "priority", .number(range: 0...200, step: 1, curve: .linear, integer: true), default: .number(100), glide: nil,
                          "sACN source priority (0-200; receivers take the highest): ignored by Art-Net"),
        ControlDescriptor(prefix + "universe", .number(range: 0...63999, step: 1, curve: .linear, integer: true), default: .number(1), glide: nil,
                          readOnly: true, note: "chosen at start with --dmx-universe (read-only)", "the universe the frames go to"),
    ]
    private static let byAddress = Dictionary(uniqueKeysWithValues: standardDescriptors.map { ($0.address, $0) })

    public func descriptor(for address: String) -> ControlDescriptor? { Self.byAddress[address] }
    public func isTransient(_ address: String) -> Bool { address == Self.prefix + "universe" }
    public var schemaTitle: String { "DMX (Art-Net, sACN)" }
    public var schemaIntroduction: String {
        """
        Frames go out only with `--artnet HOST[:PORT]` or `--sacn HOST[:PORT]` / `--sacn-multicast` (docs/rig-outputs.md): \
        the values of the LED and haptic CV ports as they are seen (the same latency compensation, plus `/dmx/offset`), \
        dark on `/panic` from the next frame and while disarmed exactly as the ports, a blackout frame on exit.
        """
    }

    public func value(of address: String) -> ControlValue? {
        let s = settings
        switch address.dropFirst(Self.prefix.count) {
        case "map": return .text(s.map.description)
        case "rate": return .number(s.rate)
        case "offset": return .number(s.offsetMilliseconds)
        case "priority": return .number(Double(s.priority))
        case "universe": return .number(Double(s.universe))
        default: return nil
        }
    }

    public func set(_ changes: [ControlChange], at frame: Int64?) throws {
        var next = settings
        for change in changes {
            switch (change.address.dropFirst(Self.prefix.count), change.value) {
            case ("map", .text(let text)):
                do { next.map = try DMXChannelMap(parsing: text) } catch { throw ControlError(change.address, error.description) }
            case ("rate", .number(let n)): next.rate = n
            case ("offset", .number(let n)): next.offsetMilliseconds = n
            case ("priority", .number(let n)): next.priority = Int(n)
            case ("universe", _): throw ControlError(change.address, "is read-only")
            default: throw ControlError.unknown(change.address)
            }
        }
        held.withLock { $0 = next }
    }
}
