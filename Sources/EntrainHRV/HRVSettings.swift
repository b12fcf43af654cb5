/// How the pipeline computes. `reference` reproduces the EBS reference engine (30-beat window,
/// lags of 4–8 beats, breathing from RR peaks, an unclamped volatility term); `standard` (the
/// default) fixes its weaknesses on real data: a window of the last `windowSeconds`, lags
/// covering every breathing cycle of 2.5–20 s, breathing from the spectrum.
public struct HRVSettings: Sendable, Equatable {
    public enum Algorithm: String, Sendable, CaseIterable {
        case standard = "default"
        case reference
    }

    public var algorithm: Algorithm = .standard
    /// The reference's rolling window, in beats (the capture spec's 30).
    public var referenceBeats = 30
    /// The window of the standard measures, the spectrum and the default mode, in seconds.
    public var windowSeconds = 64.0
    /// An update at most this often (the first beat at least this long after the last update).
    public var tickSeconds = 1.0
    /// No update before this many accepted beats.
    public var minimumBeats = 10
    /// Beats averaged for the heart rate shown.
    public var heartRateBeats = 5

    public init(algorithm: Algorithm = .standard) { self.algorithm = algorithm }
}
