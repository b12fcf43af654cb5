/// The one-number "mode score" (calm): entrainment, breathing steadiness, swing and low
/// volatility, weighted 0.4/0.3/0.2/0.1, in 0…1, with its six-band label.
public enum CalmScore {
    /// `clampVolatilityTerm`: the reference lets a volatility above 0.2 subtract from the
    /// other terms; our default mode keeps that term at 0 or more, like the other three.
    public static func score(entrainment: Double, steadiness: Double, amplitude: Double, volatility: Double,
                             clampVolatilityTerm: Bool) -> Double {
        var calmness = 1 - 5 * volatility
        if clampVolatilityTerm { calmness = max(0, calmness) }
        let s = 0.4 * entrainment + 0.3 * steadiness + 0.2 * RRStatistics.normalizedAmplitude(amplitude) + 0.1 * calmness
        return RRStatistics.clamp01(s)
    }

    public static func label(_ score: Double) -> String {
        switch score {
        case ..<0.20: "heightened alertness"
        case ..<0.35: "subtle alertness"
        case ..<0.50: "transitional"
        case ..<0.65: "settling"
        case ..<0.80: "rhythmic settling"
        default: "settled presence"
        }
    }
}
