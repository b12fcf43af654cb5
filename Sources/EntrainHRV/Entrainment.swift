/// How strongly the RR series repeats itself at a breathing cycle's length: the best
/// autocorrelation over a set of lags (in beats). The signed best value is the phase coupling
/// (negative: anti-phase, or a cycle outside the lags); entrainment is its non-negative part.
public struct Entrainment: Sendable, Equatable {
    public var coupling: Double
    public var value: Double
    public var label: String

    /// Fewer beats than this: no estimate.
    public static let minimumBeats = 10
    /// The reference's lags: four to eight beats.
    public static let referenceLags = 4...8

    public init(coupling: Double, value: Double, label: String) {
        self.coupling = coupling
        self.value = value
        self.label = label
    }

    public static func compute(_ x: [Double], lags: ClosedRange<Int>) -> Entrainment {
        guard x.count >= minimumBeats, !lags.isEmpty else { return Entrainment(coupling: 0, value: 0, label: "[insufficient data]") }
        let best = lags.map { RRStatistics.autocorrelation(x, lag: $0) }.max() ?? 0
        let coupling = min(1, max(-1, best))
        let value = RRStatistics.clamp01(coupling)
        return Entrainment(coupling: coupling, value: value, label: label(value))
    }

    public static func label(_ value: Double) -> String {
        switch value {
        case ..<0.2: "[low]"
        case ..<0.4: "[emerging]"
        case ..<0.7: "[entrained]"
        default: "[high entrainment]"
        }
    }

    /// Our default lags: every whole number of beats whose duration at `meanRR` ms is a breathing
    /// cycle of 2.5–20 s (3–24 breaths a minute), no longer than half the series.
    public static func breathingLags(meanRR: Double, count: Int) -> ClosedRange<Int> {
        guard meanRR > 0 else { return 1...0 }
        let shortest = max(2, Int((2_500 / meanRR).rounded(.down)))
        let longest = min(count / 2, Int((20_000 / meanRR).rounded(.up)))
        return shortest <= longest ? shortest...longest : 1...0
    }
}
