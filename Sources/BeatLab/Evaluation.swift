/// One detector output scored against the truth, with the window it was scored at (numbers
/// without their window are not comparable: mir_eval and madmom differ).
public struct EventScore: Sendable {
    public let window: Double
    public let f: Double
    public let precision: Double
    public let recall: Double
    public let matchedCount: Int
    public let referenceCount: Int
    public let estimatedCount: Int
    /// Over matched pairs, estimate − reference; nil when nothing matched.
    public let meanErrorMs: Double?
    public let medianErrorMs: Double?
    /// Over matched pairs, the mean of |estimate − reference|: how tightly on time; nil when nothing matched.
    public let meanAbsoluteErrorMs: Double?
}

public struct BeatScore: Sendable {
    /// F-measure and errors after trimming the first `BeatMetrics.minBeatTime` seconds.
    public let events: EventScore
    public let continuity: Continuity
}

extension BeatMetrics {
    /// Onsets: mir_eval conventions, ±50 ms, no trimming.
    public static func evaluateOnsets(reference: [Double], estimated: [Double], window: Double = onsetWindow) -> EventScore {
        score(reference: reference, estimated: estimated, window: window)
    }

    /// Beats: mir_eval conventions, the first 5 s not scored (`trimEstimates`), F at ±70 ms,
    /// continuity at 17.5 %.
    public static func evaluateBeats(reference: [Double], estimated: [Double], window: Double = beatWindow,
                                     minBeatTime: Double = minBeatTime) -> BeatScore {
        let ref = trimBeats(reference, minBeatTime: minBeatTime)
        let est = trimEstimates(estimated, reference: reference, minBeatTime: minBeatTime, window: window)
        return BeatScore(events: score(reference: ref, estimated: est, window: window),
                         continuity: continuity(reference: ref, estimated: est))
    }

    static func score(reference: [Double], estimated: [Double], window: Double) -> EventScore {
        let match = fMeasure(reference: reference, estimated: estimated, window: window)
        let errors = timingErrors(match.matched)
        return EventScore(window: window, f: match.f, precision: match.precision, recall: match.recall,
                          matchedCount: match.matched.count,
                          referenceCount: reference.filter(\.isFinite).count, estimatedCount: estimated.filter(\.isFinite).count,
                          meanErrorMs: errors?.meanMs, medianErrorMs: errors?.medianMs, meanAbsoluteErrorMs: errors?.meanAbsoluteMs)
    }
}
