import Foundation

/// The plain statistics of an RR series (milliseconds) that the EBS metrics are built from.
/// Variances are population variances (divided by n), as the EBS engines use them.
public enum RRStatistics {
    public static func mean(_ x: [Double]) -> Double {
        x.isEmpty ? 0 : x.reduce(0, +) / Double(x.count)
    }

    public static func populationVariance(_ x: [Double]) -> Double {
        guard !x.isEmpty else { return 0 }
        let m = mean(x)
        return x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count)
    }

    /// r(k): the autocovariance at lag k over the variance, both divided by n, so |r| ≤ 1 and
    /// long lags on short series are not inflated. 0 when the series is too short or flat.
    public static func autocorrelation(_ x: [Double], lag k: Int) -> Double {
        let n = x.count
        guard k >= 0, n >= k + 2 else { return 0 }
        let m = mean(x)
        var variance = 0.0, covariance = 0.0
        for v in x { variance += (v - m) * (v - m) }
        guard variance > 0 else { return 0 }
        for i in 0..<(n - k) { covariance += (x[i] - m) * (x[i + k] - m) }
        return covariance / variance
    }

    /// Longest minus shortest interval (0 for fewer than two).
    public static func amplitude(_ x: [Double]) -> Double {
        guard x.count >= 2, let lo = x.min(), let hi = x.max() else { return 0 }
        return hi - lo
    }

    /// Coefficient of variation with the population SD (0 for fewer than two, or a zero mean).
    public static func volatility(_ x: [Double]) -> Double {
        let m = mean(x)
        guard x.count >= 2, m != 0 else { return 0 }
        return populationVariance(x).squareRoot() / m
    }

    /// The amplitude as a 0…1 feature: 200 ms of swing or more is 1.
    public static func normalizedAmplitude(_ amplitude: Double) -> Double { min(1, amplitude / 200) }

    static func clamp01(_ v: Double) -> Double { min(1, max(0, v)) }
}
