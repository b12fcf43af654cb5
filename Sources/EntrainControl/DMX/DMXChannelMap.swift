import EntrainAddressSpace
import EntrainCore

/// Which DMX channel shows which value: `1=led,2=led_2*0.5,3=haptic_intensity:16,9=255`.
///
/// Each entry is `CHANNEL=SOURCE`, the source a port's value (led, led_2 … led_8,
/// haptic_intensity, haptic_sharpness) or a fixed level 0–255 (a fixture's master dimmer);
/// `:16` makes it a 16-bit value on CHANNEL (coarse) and CHANNEL+1 (fine); `*GAIN` scales it
/// (0–4, the result held to 0…1).
public struct DMXChannelMap: Sendable, Equatable, CustomStringConvertible {
    public struct Entry: Sendable, Equatable {
        public enum Source: Sendable, Equatable {
            /// An index into `LightTapFrame.values`.
            case port(Int)
            case fixed(UInt8)
        }
        /// 1…512.
        public var channel: Int
        public var source: Source
        public var wide: Bool
        public var gain: Double
    }

    public var entries: [Entry]
    public static let gains: ClosedRange<Double> = 0...4

    public init(entries: [Entry] = []) { self.entries = entries }

    /// Parses the text form; "" or "none" is an empty map.
    public init(parsing text: String) throws(DMXMapError) {
        entries = []
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if items == ["none"] { return }
        var used = Set<Int>()
        for item in items {
            let entry = try Self.entry(item)
            let channels = entry.wide ? [entry.channel, entry.channel + 1] : [entry.channel]
            if let taken = channels.first(where: used.contains) { throw DMXMapError(item, "channel \(taken) is already mapped") }
            used.formUnion(channels)
            entries.append(entry)
        }
        entries.sort { $0.channel < $1.channel }
    }

    private static func entry(_ item: String) throws(DMXMapError) -> Entry {
        let sides = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard sides.count == 2, let channel = Int(sides[0]) else { throw DMXMapError(item, "expected CHANNEL=SOURCE, like 1=led") }
        guard (1...512).contains(channel) else { throw DMXMapError(item, "channel \(channel) is outside 1–512") }
        var rest = Substring(sides[1])
        var gain = 1.0
        if let star = rest.firstIndex(of: "*") {
            guard let g = Double(rest[rest.index(after: star)...]), g.isFinite, gains.contains(g) else {
                throw DMXMapError(item, "the gain after * must be a number from 0 to 4")
            }
            gain = g
            rest = rest[..<star]
        }
        var wide = false
        if let colon = rest.firstIndex(of: ":") {
            switch rest[rest.index(after: colon)...] {
            case "8": wide = false
            case "16": wide = true
            default: throw DMXMapError(item, "the width after : must be 8 or 16")
            }
            rest = rest[..<colon]
        }
        if wide && channel == 512 { throw DMXMapError(item, "a 16-bit value needs two channels; 512 is the last") }
        let name = rest.lowercased()
        let source: Entry.Source
        if let index = LightTapFrame.sourceNames.firstIndex(of: name) {
            source = .port(index)
        } else if let level = Int(name), (0...255).contains(level) {
            if wide { throw DMXMapError(item, "a fixed level is 8-bit") }
            source = .fixed(UInt8(level))
        } else {
            throw DMXMapError(item, "unknown source '\(name)' (\(LightTapFrame.sourceNames.joined(separator: ", ")), or a level 0–255)")
        }
        return Entry(channel: channel, source: source, wide: wide, gain: gain)
    }

    /// The text form (what presets store and a query answers).
    public var description: String {
        guard !entries.isEmpty else { return "none" }
        return entries.map { e in
            var s = "\(e.channel)="
            switch e.source {
            case .port(let k): s += LightTapFrame.sourceNames[k]
            case .fixed(let level): s += String(level)
            }
            if e.wide { s += ":16" }
            if e.gain != 1 { s += "*\(ControlDescriptor.format(e.gain))" }
            return s
        }.joined(separator: ",")
    }

    /// The highest channel in use (0 for an empty map).
    public var lastChannel: Int { entries.map { $0.channel + ($0.wide ? 1 : 0) }.max() ?? 0 }

    /// Ports whose value may swing at a flashing rate while the strobe is disarmed: the haptic
    /// envelope follows the entrainment or the beat (4–12 Hz), and a lamp on it is a strobe. The
    /// LED ports are safe to show: the engine lets only steady sources reach them until armed.
    static let flashesWhileDisarmed: Set<Int> = Set(LightTapFrame.sourceNames.indices.filter { LightTapFrame.sourceNames[$0].hasPrefix("haptic") })

    /// The 512 channel values for `values` (nil: dark, every mapped channel 0, fixed levels too).
    /// While the strobe is not `armed`, channels on a port that can flash stay dark.
    public func channels(_ values: InlineArray<10, Float>?, armed: Bool = false) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 512)
        guard let values else { return out }
        for e in entries {
            let x: Double
            switch e.source {
            case .port(let k) where !armed && Self.flashesWhileDisarmed.contains(k): x = 0
            case .port(let k): x = Double(values[k])
            case .fixed(let level): x = Double(level) / 255
            }
            let v = min(1, max(0, (x.isFinite ? x : 0) * e.gain))
            if e.wide {
                let wide = Int((v * 65535).rounded())
                out[e.channel - 1] = UInt8(wide >> 8)
                out[e.channel] = UInt8(wide & 0xFF)
            } else {
                out[e.channel - 1] = UInt8((v * 255).rounded())
            }
        }
        return out
    }
}

public struct DMXMapError: Error, CustomStringConvertible {
    public let entry: String
    public let reason: String
    init(_ entry: String, _ reason: String) {
        self.entry = entry
        self.reason = reason
    }
    public var description: String { "DMX map entry '\(entry)': \(reason)" }
}
