/// From one tick's metrics to where the person is: the phase-space step, the six-mode and
/// two-axis memberships, the mode reported through the hysteresis and the movement annotation.
/// The hysteresis and annotation wait until the phase space has warmed up (two ticks).
public struct ModeTracker: Sendable {
    private var trajectory = PhaseTrajectory()
    private var hysteresis = ModeHysteresis()
    private var previousSoft: [Double]?
    private var previous2D: [Double]?
    private var calmHistory: [(t: Double, calm: Double)] = []

    public init() {}

    public mutating func track(_ m: HRVUpdate.Metrics, at t: Double) -> (phase: PhaseTrajectory.Dynamics, mode: HRVUpdate.Mode) {
        let ampNorm = RRStatistics.normalizedAmplitude(m.amplitude)
        let soft = SixModes.classify(entrainment: m.entrainment.value, steady: m.breath.steady, amplitudeNorm: ampNorm,
                                     volatility: m.volatility, previous: previousSoft)
        previousSoft = soft.membership
        let phase = trajectory.append(PhaseTrajectory.position(entrainment: m.entrainment.value, breathRate: m.breath.rate,
                                                               amplitudeNorm: ampNorm), at: t)
        let twoAxis = TwoAxisModes.classify(calm: m.calm, coherence: phase.coherence, previous: previous2D)
        previous2D = twoAxis.membership
        return (phase, report(soft: soft, twoAxis: twoAxis, calm: m.calm, warmingUp: phase.warmingUp, at: t))
    }

    private mutating func report(soft: SoftMode, twoAxis: SoftMode, calm: Double, warmingUp: Bool, at t: Double) -> HRVUpdate.Mode {
        var velocity = 0.0, acceleration = 0.0
        if let last = calmHistory.last {
            let dt1 = max(t - last.t, 0.001)
            velocity = (calm - last.calm) / dt1
            let before = calmHistory.count >= 2 ? calmHistory[calmHistory.count - 2] : nil
            let lastVelocity = before.map { (last.calm - $0.calm) / max(last.t - $0.t, 0.001) } ?? 0
            acceleration = (velocity - lastVelocity) / dt1
        }
        calmHistory.append((t, calm))
        if calmHistory.count > 2 { calmHistory.removeFirst() }
        guard !warmingUp else {
            let reported = ModeHysteresis.Output(mode: soft.primaryLabel, confidence: soft.membership[soft.primary], status: .unknown,
                                                 dwell: 0, previous: nil)
            return HRVUpdate.Mode(soft: soft, twoAxis: twoAxis, reported: reported, annotation: "insufficient data",
                                  movementLabel: soft.primaryLabel, calmAcceleration: abs(acceleration))
        }
        let annotation = MovementAnnotation.annotate(velocity: velocity, acceleration: acceleration,
                                                     previousMode: hysteresis.previous, dwell: hysteresis.dwell(at: t))
        let reported = hysteresis.update(proposed: soft.primaryLabel, membership: soft.membership[soft.primary], at: t)
        return HRVUpdate.Mode(soft: soft, twoAxis: twoAxis, reported: reported, annotation: annotation,
                              movementLabel: MovementAnnotation.label(mode: reported.mode, annotation: annotation),
                              calmAcceleration: abs(acceleration))
    }
}
