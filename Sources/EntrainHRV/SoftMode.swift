import Foundation

/// A soft classification: the membership of each mode (softmax of minus the weighted squared
/// distance to the mode's centroid over a temperature), the two strongest, and how clear the
/// choice is.
public struct SoftMode: Sendable, Equatable {
    public var labels: [String]
    public var membership: [Double]
    public var primary: Int
    public var secondary: Int
    /// 1 − (p₁ − p₂): the margin between the two strongest, as the engines compute it. With
    /// nearly collinear centroids it sits close to 1 almost always.
    public var ambiguity: Double
    /// The entropy of the memberships over its maximum (ln of the mode count), 0…1: what the
    /// capture spec calls ambiguity.
    public var entropy: Double
    /// KL divergence from the previous memberships (nil on the first).
    public var shift: Double?

    public var primaryLabel: String { labels[primary] }
    public var secondaryLabel: String { labels[secondary] }
    public func membership(of label: String) -> Double { labels.firstIndex(of: label).map { membership[$0] } ?? 0 }

    /// `previous`: the last memberships over the same modes, for `shift`.
    public static func classify(_ features: [Double], centroids: [(label: String, center: [Double])], weights: [Double],
                                temperature: Double, previous: [Double]? = nil) -> SoftMode {
        let distances = centroids.map { c in
            var d = 0.0
            for j in features.indices { d += weights[j] * (features[j] - c.center[j]) * (features[j] - c.center[j]) }
            return d
        }
        let nearest = distances.min() ?? 0
        let raw = distances.map { exp(-($0 - nearest) / temperature) }
        let total = raw.reduce(0, +)
        let p = raw.map { $0 / total }
        // The first of equal values wins (the centroids' order), as the reference's stable sort does.
        let order = p.indices.sorted { p[$0] > p[$1] || (p[$0] == p[$1] && $0 < $1) }
        let entropy = -p.reduce(0) { $0 + ($1 > 0 ? $1 * log($1) : 0) } / log(Double(p.count))
        return SoftMode(labels: centroids.map(\.label), membership: p, primary: order[0], secondary: order[1],
                        ambiguity: 1 - (p[order[0]] - p[order[1]]), entropy: entropy,
                        shift: previous.map { divergence(p, from: $0) })
    }

    /// KL(p‖q) over the modes where p is not negligible.
    public static func divergence(_ p: [Double], from q: [Double]) -> Double {
        let eps = 1e-10
        var sum = 0.0
        for i in p.indices where i < q.count && p[i] > eps { sum += p[i] * log((p[i] + eps) / (q[i] + eps)) }
        return sum
    }
}

/// The six modes of the capture spec, on (entrainment, steadiness score, amplitude 0…1,
/// inverse volatility), weighted like the calm score, at temperature 0.2.
public enum SixModes {
    public static let centroids: [(label: String, center: [Double])] = [
        ("heightened alertness", [0.10, 0.3, 0.20, 0.20]),
        ("subtle alertness", [0.25, 0.3, 0.35, 0.40]),
        ("transitional", [0.40, 0.3, 0.45, 0.60]),
        ("settling", [0.55, 1.0, 0.55, 0.75]),
        ("rhythmic settling", [0.65, 1.0, 0.65, 0.85]),
        ("settled presence", [0.80, 1.0, 0.75, 0.95]),
    ]
    public static let labels = centroids.map(\.label)
    public static let weights = [0.4, 0.3, 0.2, 0.1]
    public static let temperature = 0.2

    public static func features(entrainment: Double, steady: Bool, amplitudeNorm: Double, volatility: Double) -> [Double] {
        [entrainment, steady ? 1 : 0.3, amplitudeNorm, RRStatistics.clamp01(1 - 5 * volatility)]
    }

    public static func classify(entrainment: Double, steady: Bool, amplitudeNorm: Double, volatility: Double,
                                temperature: Double = temperature, previous: [Double]? = nil) -> SoftMode {
        SoftMode.classify(features(entrainment: entrainment, steady: steady, amplitudeNorm: amplitudeNorm, volatility: volatility),
                          centroids: centroids, weights: weights, temperature: temperature, previous: previous)
    }
}

/// The provisional two-axis modes: calm score against trajectory coherence, equal weights,
/// temperature 0.15, inputs clamped to 0…1.
public enum TwoAxisModes {
    public static let centroids: [(label: String, center: [Double])] = [
        ("reactive", [0.15, 0.12]),
        ("engaged", [0.30, 0.62]),
        ("transitional", [0.45, 0.35]),
        ("constrained stillness", [0.72, 0.15]),
        ("settled presence", [0.78, 0.68]),
    ]

    public static func classify(calm: Double, coherence: Double, previous: [Double]? = nil) -> SoftMode {
        SoftMode.classify([RRStatistics.clamp01(calm), RRStatistics.clamp01(coherence)], centroids: centroids,
                          weights: [1, 1], temperature: 0.15, previous: previous)
    }
}
