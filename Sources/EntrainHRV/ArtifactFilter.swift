/// Rejects intervals that cannot be a heartbeat or that a sensor got wrong: anything outside
/// 300–2000 ms (200 to 30 bpm), and anything more than `maximumJump` (30 %) away from the
/// median of the last nine in-range intervals — a missed beat doubles an interval, an extra
/// one halves it, while even deep slow breathing moves RR by less than that from beat to
/// beat. The median is of in-range intervals whether accepted or not, so a real and lasting
/// change of rate is accepted after about five beats instead of being refused for ever. An
/// interval rejected as too short and the next, shorter than the median, are both parts of one
/// split beat when together they make the median within 15 %: both are rejected (a split need
/// not be near the middle, so the second part may be within 30 % on its own).
public struct ArtifactFilter: Sendable {
    public static let plausible = 300.0...2000.0
    public static let maximumJump = 0.30
    public static let medianLength = 9
    /// The two parts of a split beat add up to the median within this fraction.
    public static let splitTolerance = 0.15
    /// A median needs this many intervals; before that only the range applies.
    public static let minimumHistory = 3

    public private(set) var rejected = 0
    public private(set) var accepted = 0
    private var recent: [Double] = []
    /// The last interval, when it was rejected as too short (the first part of a split beat?).
    private var shortPart: Double?

    public init() {}

    /// Whether `rr` (ms) is a beat to use; counts it either way.
    public mutating func accept(_ rr: Double) -> Bool {
        guard rr.isFinite, Self.plausible.contains(rr) else {
            shortPart = rr < Self.plausible.lowerBound ? rr : nil
            rejected += 1
            return false
        }
        let median = recent.count >= Self.minimumHistory ? Self.median(recent) : nil
        recent.append(rr)
        if recent.count > Self.medianLength { recent.removeFirst() }
        let splitPart = shortPart
        shortPart = nil
        if let median, let splitPart, rr < median, abs(splitPart + rr - median) <= Self.splitTolerance * median {
            rejected += 1
            return false
        }
        if let median, abs(rr - median) > Self.maximumJump * median {
            if rr < median { shortPart = rr }
            rejected += 1
            return false
        }
        accepted += 1
        return true
    }

    static func median(_ x: [Double]) -> Double {
        let s = x.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
