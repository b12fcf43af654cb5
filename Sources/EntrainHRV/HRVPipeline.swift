/// RR intervals in, an update about once a second out: artifacts rejected, the standard
/// measures and spectral coherence over a rolling window, and the EBS metrics, phase space and
/// modes in the chosen algorithm. A value type with no clock of its own: callers pass times
/// (RR time in a replay, wall time live), so a replay and a live run compute alike.
public struct HRVPipeline: Sendable {
    public let settings: HRVSettings
    public private(set) var filter = ArtifactFilter()
    private var beats: [Double] = []
    /// When each accepted beat ended, in seconds of RR (rejected intervals count: a missed beat
    /// still took its time), so the spectrum's time axis has gaps, not a squeeze.
    private var beatTimes: [Double] = []
    private var clock = 0.0
    private var unreported: [Double] = []
    private var lastTick: Double?
    private var tracker = ModeTracker()
    /// Beats kept: enough for the longest window.
    static let keptBeats = 1_000

    /// Breathing, from the spectrum: 3–24 breaths a minute.
    public static let breathBand = 0.05...0.40
    /// Steady when the breathing peak holds this share of the band's power.
    public static let steadyShare = 0.5

    public init(settings: HRVSettings = HRVSettings()) { self.settings = settings }

    /// Beats per minute from the last few accepted beats, now (not only at updates).
    public var heartRate: Double { TimeDomain.heartRate(meanRR: RRStatistics.mean(Array(beats.suffix(settings.heartRateBeats)))) }

    /// Beats rejected as artifacts, and accepted.
    public var rejected: Int { filter.rejected }
    public var accepted: Int { filter.accepted }

    /// Take intervals (ms) that arrived at `time` s; the update when one is due.
    public mutating func ingest(_ rr: [Double], at time: Double) -> HRVUpdate? {
        for r in rr {
            unreported.append(r)
            if r.isFinite && r > 0 { clock += min(r, Self.longestGap) / 1000 }
            if filter.accept(r) {
                beats.append(r)
                beatTimes.append(clock)
            }
        }
        if beats.count > Self.keptBeats {
            beats.removeFirst(beats.count - Self.keptBeats)
            beatTimes.removeFirst(beatTimes.count - Self.keptBeats)
        }
        guard beats.count >= settings.minimumBeats, lastTick.map({ time - $0 >= settings.tickSeconds }) ?? true else { return nil }
        lastTick = time
        return update(at: time)
    }

    /// A rejected interval adds at most this to the clock (ms): garbage is not time.
    static let longestGap = 5_000.0

    /// The accepted beats of the last `seconds` (at least two), with their end times.
    func recent(seconds: Double) -> (rr: [Double], times: [Double]) {
        guard let end = beatTimes.last else { return ([], []) }
        var start = beats.count - 1
        while start > 0 && end - (beatTimes[start - 1] - beats[start - 1] / 1000) <= seconds { start -= 1 }
        start = max(0, min(start, beats.count - 2))
        return (Array(beats[start...]), Array(beatTimes[start...]))
    }

    private mutating func update(at t: Double) -> HRVUpdate {
        let (window, times) = recent(seconds: settings.windowSeconds)
        let ebs = settings.algorithm == .reference ? Array(beats.suffix(settings.referenceBeats)) : window
        let spectrum = RRSpectrum(window, times: times)
        let metrics = Self.metrics(ebs, algorithm: settings.algorithm, spectrum: spectrum)
        let (phase, mode) = tracker.track(metrics, at: t)
        let newBeats = unreported
        unreported.removeAll()
        return HRVUpdate(t: t, newBeats: newBeats, algorithm: settings.algorithm,
                         heartRate: heartRate,
                         timeDomain: TimeDomain(window), spectral: spectrum.map(SpectralCoherence.init), metrics: metrics, phase: phase,
                         mode: mode, rejected: filter.rejected, accepted: filter.accepted)
    }

    /// The EBS metrics of `x`: in the reference algorithm exactly the reference's; in ours with
    /// breathing-length lags, breathing from `spectrum` and the volatility term kept ≥ 0.
    public static func metrics(_ x: [Double], algorithm: HRVSettings.Algorithm, spectrum: RRSpectrum? = nil) -> HRVUpdate.Metrics {
        let reference = algorithm == .reference
        let amplitude = RRStatistics.amplitude(x), volatility = RRStatistics.volatility(x)
        let lags = reference ? Entrainment.referenceLags : Entrainment.breathingLags(meanRR: RRStatistics.mean(x), count: x.count)
        let entrainment = Entrainment.compute(x, lags: lags)
        let breath = reference ? BreathEstimate.fromPeaks(x) : spectralBreath(spectrum)
        let calm = CalmScore.score(entrainment: entrainment.value, steadiness: breath.steadinessScore, amplitude: amplitude,
                                   volatility: volatility, clampVolatilityTerm: !reference)
        return HRVUpdate.Metrics(amplitude: amplitude, entrainment: entrainment, breath: breath, volatility: volatility,
                                 calm: calm, calmLabel: CalmScore.label(calm))
    }

    /// Our default breathing estimate: the strongest frequency of 3–24 cycles a minute in the
    /// RR spectrum, steady when that peak holds at least half the band's power. Beat-to-beat
    /// noise spreads thinly over the band and barely moves the peak.
    static func spectralBreath(_ spectrum: RRSpectrum?) -> BreathEstimate {
        guard let spectrum else { return .none }
        let f = spectrum.peak(in: breathBand)
        let band = spectrum.power(in: breathBand)
        guard band > 0 else { return .none }
        let share = spectrum.power(in: max(breathBand.lowerBound, f - SpectralCoherence.halfWidth)...min(breathBand.upperBound, f + SpectralCoherence.halfWidth)) / band
        return BreathEstimate(rate: f * 60, steady: share >= steadyShare)
    }
}
