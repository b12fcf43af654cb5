import Foundation

/// The 16 s phrase grid aligned to the Unix epoch (wall clock, UTC), as the web's.
public enum KesshoPhrase {
    public static let length: Double = 16
    public static let voiceCount = 6

    /// floor(unixSeconds / 16).
    public static func index(unixSeconds: Double) -> Int { Int((unixSeconds / length).rounded(.down)) }

    public static func index(_ date: Date) -> Int { index(unixSeconds: date.timeIntervalSince1970) }

    /// Next boundary at or after t: ceil(t/16)·16 (t itself when already on a boundary, as the web computes).
    public static func nextBoundary(unixSeconds: Double) -> Double { (unixSeconds / length).rounded(.up) * length }

    /// Phrases per chord = max(1, round(chordRate/16)), with JS Math.round (.5 rounds up).
    public static func phrasesPerChord(chordRate: Double) -> Int {
        max(1, Int((chordRate / length + 0.5).rounded(.down)))
    }
}
