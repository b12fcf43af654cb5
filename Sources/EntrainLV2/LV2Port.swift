/// One port of a plugin, as its data describes it.
public struct LV2Port: Sendable {
    public enum Kind: String, Sendable {
        case audioIn = "audio in", audioOut = "audio out", controlIn = "control in", controlOut = "control out"
        case atomIn = "atom in", atomOut = "atom out", cvIn = "cv in", cvOut = "cv out", other
    }

    public let index: Int
    public let symbol: String
    public let name: String
    public let kind: Kind
    public let minimum: Float?
    public let maximum: Float?
    public let defaultValue: Float?
    /// The unit's symbol ("dB", "Hz"), or "".
    public let unit: String
    public let integer: Bool
    public let toggled: Bool
    public let logarithmic: Bool
    /// Named values (lv2:enumeration), in value order.
    public let scalePoints: [(label: String, value: Float)]
    public let enumeration: Bool
    /// The plugin reports its latency in frames on this (output control) port.
    public let reportsLatency: Bool
    /// The plugin works with this port left unconnected.
    public let optional: Bool
    /// Reads MIDI events (an atom input that supports midi:MidiEvent).
    public let takesMIDI: Bool
    /// Minimum, maximum and default are fractions of the sample rate (lv2:sampleRate); the
    /// value itself is in Hz. `at(sampleRate:)` gives the port with its bounds in Hz.
    public let relativeToSampleRate: Bool

    /// This port with bounds and default in Hz at `sampleRate` (unchanged unless relative).
    public func at(sampleRate: Double) -> LV2Port {
        guard relativeToSampleRate else { return self }
        let r = Float(sampleRate)
        return LV2Port(index: index, symbol: symbol, name: name, kind: kind, minimum: minimum.map { $0 * r },
                       maximum: maximum.map { $0 * r }, defaultValue: defaultValue.map { $0 * r }, unit: unit.isEmpty ? "Hz" : unit,
                       integer: integer, toggled: toggled, logarithmic: logarithmic, scalePoints: scalePoints,
                       enumeration: enumeration, reportsLatency: reportsLatency, optional: optional, takesMIDI: takesMIDI,
                       relativeToSampleRate: false)
    }

    /// The value a new instance starts with: the default, else the minimum, else 0 (in range).
    public var startValue: Float {
        var v = defaultValue ?? minimum ?? 0
        if !v.isFinite { v = 0 }
        if let minimum, minimum.isFinite, v < minimum { v = minimum }
        if let maximum, maximum.isFinite, v > maximum { v = maximum }
        return v
    }
}
