import EntrainAddressSpace

/// What one pixel output shows: its effect, palette, brightness, speed, blend and extra delay.
public struct PixelSettings: Sendable, Equatable {
    public enum Effect: String, Sendable, CaseIterable { case off, solid, pacer, beat, strobe, energy, bands, scroll }
    public var effect = Effect.off
    public var palette = 0
    public var brightness = 0.5
    public var speed = 1.0
    public var blend = 0.0
    public var offsetMilliseconds = 0.0

    public init() {}

    public static let speeds: ClosedRange<Double> = 0.1...10
    public static let blends: ClosedRange<Double> = 0...0.95
    public static let offsets: ClosedRange<Double> = -200...1000
}

/// The addresses of a pixel output, `/pixels/NAME/KEY`, for any NAME: one declaration for the
/// running families and for the files and command line checked before the rig is read.
public enum PixelAddresses {
    public static let prefix = "/pixels/"
    public static let keys = ["effect", "palette", "brightness", "speed", "blend", "offset"]

    public static func descriptors(name: String) -> [ControlDescriptor] {
        let base = prefix + name + "/"
        return [
            ControlDescriptor(base + "effect", .choice(options: PixelSettings.Effect.allCases.map(\.rawValue), indexed: true), default: .text("off"),
                              glide: nil, "what the output shows: off (black), solid (the palette as a gradient), pacer (the led port's light as colour: the breathing pacer, the entrainment), beat (a flash on each beat of beat_in), strobe (the led port's strobe on a quarter of the pixels), energy (a level bar), bands (the spectrum of beat_in), scroll (onsets travelling along)"),
            ControlDescriptor(base + "palette", .choice(options: Palette.names, indexed: true), default: .text(Palette.names[0]), glide: nil,
                              "gradient palette the effects take their colours from"),
            ControlDescriptor(base + "brightness", .number(range: 0...1, step: nil, curve: .linear, integer: false), default: .number(0.5), glide: nil,
                              "brightness of the whole output (before the thermal cap and the flash safety)"),
            ControlDescriptor(base + "speed", .number(range: PixelSettings.speeds, step: nil, curve: .logarithmic, integer: false), default: .number(1), glide: nil,
                              "how fast effects move: flashes and bands fall (1: 150 ms), scroll travels (1: 60 pixels/s)"),
            ControlDescriptor(base + "blend", .number(range: PixelSettings.blends, step: nil, curve: .linear, integer: false), default: .number(0), glide: nil,
                              "how much of the previous frame stays in each new one (trails; 0: none)"),
            ControlDescriptor(base + "offset", .number(range: PixelSettings.offsets, step: nil, curve: .linear, integer: false), unit: "ms",
                              default: .number(0), glide: nil, "extra delay of this output's light for the controller's own lag (negative: earlier)"),
        ]
    }

    /// The descriptor of `/pixels/NAME/KEY` for any valid NAME (what a preset or session may carry).
    public static func descriptor(for address: String) -> ControlDescriptor? {
        let parts = address.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "pixels", !parts[2].isEmpty,
              parts[2].allSatisfy(PixelRig.nameCharacters.contains), keys.contains(String(parts[3])) else { return nil }
        return descriptors(name: String(parts[2])).first { $0.address == address }
    }

    /// The schema's placeholder rows.
    public static var schemaDescriptors: [ControlDescriptor] { descriptors(name: "NAME") }
}
