import Foundation

/// Time buckets and the exact seed strings the web engine hashes.
public enum KesshoSeedWindow: String, Sendable {
    case hour, day

    /// The state's `seedWindow`; anything but "day" means hour, the default.
    public init(state: KesshoState) { self = state.string("seedWindow") == "day" ? .day : .hour }
}

public enum KesshoSeed {
    /// UTC bucket: `YYYY-MM-DDTHH` (hour) or `YYYY-MM-DD` (day), zero-padded.
    public static func bucket(_ date: Date, window: KesshoSeedWindow) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour], from: date)
        let day = pad(c.year!, 4) + "-" + pad(c.month!, 2) + "-" + pad(c.day!, 2)
        return window == .day ? day : day + "T" + pad(c.hour!, 2)
    }

    /// Engine stream and initial harmony: `"<bucket>|E_ROOT"`.
    public static func engineSeed(bucket: String) -> String { bucket + "|E_ROOT" }

    /// Per-phrase harmony: `"<bucket>|<JSON.stringify(state)>|E_ROOT|phrase:<n>"`.
    public static func phraseSeed(bucket: String, stateJSON: String, phraseIndex: Int) -> String {
        bucket + "|" + stateJSON + "|E_ROOT|phrase:" + String(phraseIndex)
    }

    /// Display/ocean seed: first xmur3 output of `"<bucket>|E_ROOT|E_ROOT"`.
    public static func displaySeed(bucket: String) -> UInt32 { KesshoXmur3.hash(bucket + "|E_ROOT|E_ROOT") }

    /// Drum lane voice pick / evolve stream: `"drum-euclid-<i>-<i>"`, i = 0…3.
    public static func drumLaneSeed(lane: Int) -> String { "drum-euclid-\(lane)-\(lane)" }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
