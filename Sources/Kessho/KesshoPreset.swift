import Foundation

/// How a numeric slider is driven: `single` (its value), `walk` (wandering inside its dual range
/// at 10 Hz), `sampleHold` (drawn per trigger). `single` is never written to files.
public enum KesshoSliderMode: String, Sendable, Equatable {
    case single, walk, sampleHold
}

public struct KesshoDualRange: Sendable, Equatable {
    public var min: Double
    public var max: Double
    public init(min: Double, max: Double) { self.min = min; self.max = max }
}

/// A small insertion-ordered map, so dual ranges and modes save in the order they were read.
public struct KesshoOrderedMap<Value: Sendable & Equatable>: Sendable, Equatable {
    public private(set) var keys: [String] = []
    private var values: [String: Value] = [:]

    public init() {}

    public var isEmpty: Bool { keys.isEmpty }
    public var count: Int { keys.count }

    public subscript(key: String) -> Value? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public var entries: [(key: String, value: Value)] { keys.map { ($0, values[$0]!) } }
}

/// A preset file: `{name, timestamp, state, dualRanges?, sliderModes?}`, the web app's format.
public struct KesshoPreset: Sendable, Equatable {
    public var name: String
    /// ISO-8601 UTC with milliseconds, as `Date.toISOString()` writes it; only displayed.
    public var timestamp: String
    public var state: KesshoState
    public var dualRanges: KesshoOrderedMap<KesshoDualRange>
    public var sliderModes: KesshoOrderedMap<KesshoSliderMode>

    public init(name: String, timestamp: String = KesshoPreset.isoTimestamp(Date()), state: KesshoState = .defaults,
                dualRanges: KesshoOrderedMap<KesshoDualRange> = .init(),
                sliderModes: KesshoOrderedMap<KesshoSliderMode> = .init()) {
        self.name = name
        self.timestamp = timestamp
        self.state = state
        self.dualRanges = dualRanges
        self.sliderModes = sliderModes
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, like JS `toISOString()`.
    public static func isoTimestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }

    /// The web's suggested file name: every non-alphanumeric character becomes `_`, plus `.json`.
    public var suggestedFileName: String {
        String(name.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" }) + ".json"
    }
}
