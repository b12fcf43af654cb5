/// A breathing rate read from the RR series (breaths per minute, nil when none can be found)
/// and whether the rhythm is steady.
public struct BreathEstimate: Sendable, Equatable {
    public var rate: Double?
    public var steady: Bool

    public static let none = BreathEstimate(rate: nil, steady: false)
    /// Rates outside this band are not breathing.
    public static let plausible = 2.0...20.0

    public init(rate: Double?, steady: Bool) {
        self.rate = rate
        self.steady = steady
    }

    /// The score the mode features give a steady (1) or unsteady (0.3) rhythm.
    public var steadinessScore: Double { steady ? 1 : 0.3 }

    /// Indices of strict local maxima (a plateau is no peak).
    public static func peaks(_ x: [Double]) -> [Int] {
        guard x.count >= 3 else { return [] }
        return (1..<(x.count - 1)).filter { x[$0] > x[$0 - 1] && x[$0] > x[$0 + 1] }
    }

    /// The reference estimate: the mean gap between RR peaks (in beats) times the mean RR is
    /// one breath; steady when at least two gaps vary by less than 30 % (population CV). With
    /// fewer than two peaks, half the mean crossings per minute (never steady). It fails on
    /// beat-to-beat noise, which makes peaks of its own: our default mode uses the spectrum.
    public static func fromPeaks(_ x: [Double]) -> BreathEstimate {
        guard x.count >= 6 else { return .none }
        let mean = RRStatistics.mean(x)
        let found = peaks(x)
        guard found.count >= 2 else { return fromCrossings(x, mean: mean) }
        let gaps = zip(found.dropFirst(), found).map { Double($0 - $1) }
        let meanGap = RRStatistics.mean(gaps)
        let rate = 60_000 / (meanGap * mean)
        guard plausible.contains(rate) else { return .none }
        let cv = RRStatistics.populationVariance(gaps).squareRoot() / meanGap
        return BreathEstimate(rate: rate, steady: gaps.count >= 2 && cv < 0.3)
    }

    private static func fromCrossings(_ x: [Double], mean: Double) -> BreathEstimate {
        let crossings = zip(x, x.dropFirst()).filter { ($0 - mean) * ($1 - mean) < 0 }.count
        guard crossings >= 2 else { return .none }
        let minutes = x.reduce(0, +) / 60_000
        let rate = Double(crossings) / 2 / minutes
        return plausible.contains(rate) ? BreathEstimate(rate: rate, steady: false) : .none
    }
}
