/// Event-matching metrics with mir_eval's conventions (windows, beat trimming), written from
/// the definitions. All times are in seconds; inputs need not be sorted; non-finite times are
/// ignored.
public enum BeatMetrics {
    /// mir_eval `beat.f_measure` default: ±70 ms.
    public static let beatWindow = 0.07
    /// mir_eval `onset.f_measure` default: ±50 ms.
    public static let onsetWindow = 0.05
    /// mir_eval `trim_beats`: beats before 5 s are ignored (trackers need time to lock).
    public static let minBeatTime = 5.0

    /// Windows are widened by this much so that an error of exactly the window (e.g. 5.07 − 5.00,
    /// which is 0.07000000000000028 in binary) counts as inside, as written.
    static let windowSlack = 1e-9

    public struct Match: Sendable {
        public let f: Double
        public let precision: Double
        public let recall: Double
        /// The one-to-one pairs, in time order.
        public let matched: [(ref: Double, est: Double)]
    }

    /// F-measure with one-to-one matching within ±`window` seconds, maximising the number of matches.
    ///
    /// Both lists empty scores F = P = R = 1 (nothing to find, nothing claimed: a perfect answer
    /// for a no-beat item). mir_eval warns and returns 0 there instead. One list empty scores 0.
    ///
    /// Greedy matching is optimal here: walk both sorted lists; pair the earliest remaining
    /// reference and estimate if they are within the window, else drop whichever is too early to
    /// match anything later. Exchange argument: if an optimal matching pairs the earliest
    /// reference r with e′ and the earliest estimate e with r′ instead, then e ≤ e′ and r ≤ r′ give
    /// r′ − w ≤ e ≤ e′ ≤ r + w ≤ r′ + w, so (r, e) and (r′, e′) is an equally large matching.
    public static func fMeasure(reference: [Double], estimated: [Double], window: Double) -> Match {
        let ref = sortedFinite(reference), est = sortedFinite(estimated)
        if ref.isEmpty && est.isEmpty { return Match(f: 1, precision: 1, recall: 1, matched: []) }
        if ref.isEmpty || est.isEmpty { return Match(f: 0, precision: 0, recall: 0, matched: []) }
        let w = window + windowSlack
        var matched: [(ref: Double, est: Double)] = []
        var i = 0, j = 0
        while i < ref.count && j < est.count {
            let d = est[j] - ref[i]
            if abs(d) <= w {
                matched.append((ref[i], est[j]))
                i += 1
                j += 1
            } else if d < 0 {
                j += 1  // this estimate is too early for this and every later reference
            } else {
                i += 1  // this reference is too early for this and every later estimate
            }
        }
        let precision = Double(matched.count) / Double(est.count)
        let recall = Double(matched.count) / Double(ref.count)
        let f = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        return Match(f: f, precision: precision, recall: recall, matched: matched)
    }

    /// Beats at or after `minBeatTime` (mir_eval `trim_beats`).
    public static func trimBeats(_ beats: [Double], minBeatTime: Double = minBeatTime) -> [Double] {
        sortedFinite(beats).filter { $0 >= minBeatTime }
    }

    /// The estimated beats scored with the reference beats at or after `minBeatTime`: each with
    /// the reference beat nearest it when one is within `window`, else by its own time. mir_eval
    /// trims both lists at 5 s, so a beat estimated 2 ms before a reference beat at 5.000 s was
    /// dropped and that reference counted missed (a tracker on time scored a miss, one 2 ms late
    /// a hit: the synthesized songs at 120 BPM have a reference beat on 5.000 s), and one 2 ms
    /// after a reference beat at 4.999 s counted as a false beat.
    public static func trimEstimates(_ beats: [Double], reference: [Double], minBeatTime: Double = minBeatTime,
                                     window: Double = beatWindow) -> [Double] {
        let ref = sortedFinite(reference)
        return sortedFinite(beats).filter { t in
            guard let nearest = ref.min(by: { abs($0 - t) < abs($1 - t) }), abs(nearest - t) <= window else { return t >= minBeatTime }
            return nearest >= minBeatTime
        }
    }

    /// Over matched pairs, in milliseconds: mean and median of (estimate − reference), positive
    /// when the estimates are late, and the mean of its size (how tightly on time); nil when
    /// nothing matched.
    public static func timingErrors(_ matched: [(ref: Double, est: Double)]) -> (meanMs: Double, medianMs: Double, meanAbsoluteMs: Double)? {
        guard !matched.isEmpty else { return nil }
        let errors = matched.map { ($0.est - $0.ref) * 1000 }.sorted()
        let mean = errors.reduce(0, +) / Double(errors.count)
        let meanAbsolute = errors.map(abs).reduce(0, +) / Double(errors.count)
        let mid = errors.count / 2
        let median = errors.count % 2 == 1 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2
        return (mean, median, meanAbsolute)
    }

    static func sortedFinite(_ times: [Double]) -> [Double] { times.filter(\.isFinite).sorted() }
}
