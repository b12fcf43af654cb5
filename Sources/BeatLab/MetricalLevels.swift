/// Beat F at the metrical level the tracker chose: the annotated beats, their double (the
/// off-beats added) and their half (every other beat, either parity). A tracker that follows a
/// 180 BPM song at 90 on its beats is right at a level; one on the off-beats is not.
public struct LevelScore: Sendable, Equatable {
    /// F against the annotation as it is.
    public let annotated: Double
    /// The best F over annotated, double and both halves.
    public let best: Double
    public let bestLevel: Level

    public enum Level: String, Sendable { case annotated, double, half }
}

extension BeatMetrics {
    /// F-measures after the usual trimming (beats before `minBeatTime` dropped), at ±`window`.
    public static func levelScore(reference: [Double], estimated: [Double], window: Double = beatWindow,
                                  minBeatTime: Double = minBeatTime) -> LevelScore {
        let ref = sortedFinite(reference)
        let offBeats = zip(ref, ref.dropFirst()).map { ($0 + $1) / 2 }
        let double = (ref + offBeats).sorted()
        let halves = [stride(from: 0, to: ref.count, by: 2), stride(from: 1, to: ref.count, by: 2)].map { $0.map { ref[$0] } }
        func f(_ r: [Double]) -> Double {
            fMeasure(reference: trimBeats(r, minBeatTime: minBeatTime),
                     estimated: trimEstimates(estimated, reference: r, minBeatTime: minBeatTime, window: window), window: window).f
        }
        let annotated = f(ref)
        var best = (annotated, LevelScore.Level.annotated)
        for (level, r) in [(LevelScore.Level.double, double), (.half, halves[0]), (.half, halves[1])] {
            let score = f(r)
            if score > best.0 { best = (score, level) }
        }
        return LevelScore(annotated: annotated, best: best.0, bestLevel: best.1)
    }
}
