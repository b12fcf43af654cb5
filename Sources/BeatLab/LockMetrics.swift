/// How soon a tracker locks and whether it ever falls silent while the music plays, from the
/// whole song (no 5 s trimming: the first seconds are the point here).
public struct LockMetrics: Sendable, Equatable {
    /// Seconds from the first true beat to the first of four true beats in a row that each have
    /// a published beat within ±70 ms; nil when that never happens.
    public let lockSeconds: Double?
    /// The same lock counted in true beats: how many went by before that run (0: locked on the first).
    public let beatsBeforeLock: Int?
    /// The longest time without any published beat between the first published beat and the
    /// last true beat (the music still playing), seconds; the whole song when nothing was published.
    public let longestGapSeconds: Double
    /// The longest gap in true beat periods (the median true interval), so tempi compare.
    public let longestGapBeats: Double

    public static let runLength = 4

    public static func measure(reference: [Double], estimated: [Double], window: Double = BeatMetrics.beatWindow) -> LockMetrics {
        let ref = BeatMetrics.sortedFinite(reference), est = BeatMetrics.sortedFinite(estimated)
        guard let first = ref.first, let last = ref.last else {
            return LockMetrics(lockSeconds: nil, beatsBeforeLock: nil, longestGapSeconds: 0, longestGapBeats: 0)
        }
        let hit = ref.map { r in est.contains { abs($0 - r) <= window + BeatMetrics.windowSlack } }
        var lockBeat: Int?
        var run = 0
        for (i, ok) in hit.enumerated() {
            run = ok ? run + 1 : 0
            if run == runLength { lockBeat = i - runLength + 1; break }
        }
        let lock = lockBeat.map { ref[$0] - first }
        let intervals = zip(ref, ref.dropFirst()).map { $1 - $0 }.sorted()
        let period = intervals.isEmpty ? 1 : intervals[intervals.count / 2]
        let playing = est.filter { $0 <= last + window }
        guard !playing.isEmpty else {
            return LockMetrics(lockSeconds: lock, beatsBeforeLock: lockBeat, longestGapSeconds: last - first, longestGapBeats: (last - first) / period)
        }
        var gap = max(0, last - playing[playing.count - 1])
        for (a, b) in zip(playing, playing.dropFirst()) { gap = max(gap, b - a) }
        return LockMetrics(lockSeconds: lock, beatsBeforeLock: lockBeat, longestGapSeconds: gap, longestGapBeats: gap / period)
    }
}
