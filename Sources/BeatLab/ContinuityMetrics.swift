/// Continuity-based beat accuracy (Davies, Degara & Plumbley 2009, after Hainsworth and Klapuri).
///
/// An annotation counts as correctly tracked when the estimate nearest to it is within
/// `tolerance` × the local inter-annotation interval (IAI) in phase, and the estimate's own
/// inter-beat interval is within `tolerance` × IAI of that interval in period.
/// CMLc: the longest run of consecutive correct annotations / annotations; CMLt: all correct /
/// annotations. AMLc/AMLt: the best of the same over the metrical variants of the annotations
/// (as annotated, off-beat, double tempo, half tempo on odd and on even beats).
///
/// Simplifications against the metrics' published definition and mir_eval:
/// * the local IAI is the interval ending at the annotation (the first annotation uses the
///   following one), and the estimate's interval the one ending at it (the first estimate uses
///   the following one);
/// * each annotation takes its nearest estimate; with tolerance < 0.5 the phase windows of
///   neighbouring annotations cannot overlap, so no estimate is counted twice;
/// * AMLc and AMLt each take their own maximum over the variants;
/// * both lists empty score 1 (as `BeatMetrics.fMeasure`); fewer than two beats in either
///   list, or in a variant, score 0.
public struct Continuity: Sendable, Equatable {
    public let cmlc: Double
    public let cmlt: Double
    public let amlc: Double
    public let amlt: Double

    public init(cmlc: Double, cmlt: Double, amlc: Double, amlt: Double) {
        self.cmlc = cmlc
        self.cmlt = cmlt
        self.amlc = amlc
        self.amlt = amlt
    }
}

extension BeatMetrics {
    /// mir_eval continuity default: 17.5 % of the inter-annotation interval, in phase and period.
    public static let continuityTolerance = 0.175

    /// Continuity scores of `estimated` against `reference`. Callers trim both first (see `evaluateBeats`).
    public static func continuity(reference: [Double], estimated: [Double],
                                  tolerance: Double = continuityTolerance) -> Continuity {
        let ref = sortedFinite(reference), est = sortedFinite(estimated)
        if ref.isEmpty && est.isEmpty { return Continuity(cmlc: 1, cmlt: 1, amlc: 1, amlt: 1) }
        guard ref.count >= 2, est.count >= 2 else { return Continuity(cmlc: 0, cmlt: 0, amlc: 0, amlt: 0) }
        let offBeats = zip(ref, ref.dropFirst()).map { ($0 + $1) / 2 }
        let double = zip(ref, offBeats).flatMap { [$0, $1] } + [ref[ref.count - 1]]
        let halfOdd = stride(from: 0, to: ref.count, by: 2).map { ref[$0] }
        let halfEven = stride(from: 1, to: ref.count, by: 2).map { ref[$0] }
        let annotated = runs(ref, est, tolerance)
        let variants = [annotated] + [offBeats, double, halfOdd, halfEven].map { runs($0, est, tolerance) }
        return Continuity(cmlc: annotated.longest, cmlt: annotated.total,
                          amlc: variants.map(\.longest).max()!, amlt: variants.map(\.total).max()!)
    }

    /// Fractions of `ref` correctly tracked: longest consecutive run and total.
    static func runs(_ ref: [Double], _ est: [Double], _ tolerance: Double) -> (longest: Double, total: Double) {
        guard ref.count >= 2 else { return (0, 0) }
        var longest = 0, run = 0, total = 0
        for i in ref.indices {
            let iai = i > 0 ? ref[i] - ref[i - 1] : ref[1] - ref[0]
            let j = nearest(ref[i], in: est)
            let estInterval = j > 0 ? est[j] - est[j - 1] : est[1] - est[0]
            let inPhase = abs(est[j] - ref[i]) <= tolerance * iai
            let inPeriod = abs(estInterval - iai) <= tolerance * iai
            if inPhase && inPeriod {
                run += 1
                total += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        return (Double(longest) / Double(ref.count), Double(total) / Double(ref.count))
    }

    /// Index of the element of sorted, non-empty `times` closest to `t`.
    static func nearest(_ t: Double, in times: [Double]) -> Int {
        var low = 0, high = times.count  // first index with times[i] >= t
        while low < high {
            let mid = (low + high) / 2
            if times[mid] < t { low = mid + 1 } else { high = mid }
        }
        if low == times.count { return low - 1 }
        if low > 0 && t - times[low - 1] <= times[low] - t { return low - 1 }
        return low
    }
}
