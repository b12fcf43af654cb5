/// Everything one tick of the pipeline computes.
public struct HRVUpdate: Sendable {
    public struct Metrics: Sendable {
        public var amplitude: Double
        public var entrainment: Entrainment
        public var breath: BreathEstimate
        public var volatility: Double
        public var calm: Double
        public var calmLabel: String

        public init(amplitude: Double, entrainment: Entrainment, breath: BreathEstimate, volatility: Double, calm: Double, calmLabel: String) {
            self.amplitude = amplitude
            self.entrainment = entrainment
            self.breath = breath
            self.volatility = volatility
            self.calm = calm
            self.calmLabel = calmLabel
        }
    }

    public struct Mode: Sendable {
        public var soft: SoftMode
        public var twoAxis: SoftMode
        public var reported: ModeHysteresis.Output
        public var annotation: String
        public var movementLabel: String
        public var calmAcceleration: Double
        /// The reported mode's membership.
        public var membership: Double { soft.membership(of: reported.mode) }
    }

    /// Seconds: of RR in a replay, since the start live.
    public var t: Double
    /// The intervals received since the last update (rejected ones included), ms.
    public var newBeats: [Double]
    public var algorithm: HRVSettings.Algorithm
    public var heartRate: Double
    public var timeDomain: TimeDomain
    /// nil until the window spans enough time for a spectrum.
    public var spectral: SpectralCoherence?
    public var metrics: Metrics
    public var phase: PhaseTrajectory.Dynamics
    public var mode: Mode
    public var rejected: Int
    public var accepted: Int

    public var coherence: Double { spectral?.coherence ?? 0 }
}
