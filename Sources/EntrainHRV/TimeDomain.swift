/// The standard time-domain measures over a window of RR intervals (ms): mean RR, SDNN
/// (sample SD, n − 1), RMSSD (root mean square of successive differences), pNN50 (percentage
/// of successive differences strictly above 50 ms, over the n − 1 differences).
public struct TimeDomain: Sendable, Equatable {
    public var count: Int
    public var meanRR: Double
    public var sdnn: Double
    public var rmssd: Double
    public var pnn50: Double

    public init(_ x: [Double]) {
        count = x.count
        meanRR = RRStatistics.mean(x)
        guard x.count >= 2 else {
            sdnn = 0; rmssd = 0; pnn50 = 0
            return
        }
        sdnn = (RRStatistics.populationVariance(x) * Double(x.count) / Double(x.count - 1)).squareRoot()
        let differences = zip(x.dropFirst(), x).map { $0 - $1 }
        rmssd = (differences.reduce(0) { $0 + $1 * $1 } / Double(differences.count)).squareRoot()
        pnn50 = 100 * Double(differences.filter { abs($0) > 50 }.count) / Double(differences.count)
    }

    /// Beats per minute for a mean RR in ms (0 without one).
    public static func heartRate(meanRR: Double) -> Double { meanRR > 0 ? 60_000 / meanRR : 0 }
}
