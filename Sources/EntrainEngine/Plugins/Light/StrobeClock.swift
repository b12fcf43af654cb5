import EntrainDSP

/// The entrainment strobe's phase, on the frame clock. While the beat frequency is steady the
/// phase is computed from the frame count, not accumulated: phase = base + (n·f)/rate, so a
/// 40 Hz strobe at 48 kHz turns on at exactly every 1,200th frame for as long as it runs, with no
/// drift. While the frequency glides it accumulates, exactly as voice 1's own gate does.
struct StrobeClock {
    let sampleRate: Double
    let inverseRate: Double
    private(set) var phase = 0.0
    private var baseFrame: Int64 = 0
    private var basePhase = 0.0
    private var baseFrequency = -1.0

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        inverseRate = 1 / sampleRate
    }

    /// Start again from `phase` (voice 1 came back from silence: follow its gate).
    mutating func synchronise(phase: Double) {
        self.phase = phase
        baseFrequency = -1
    }

    /// The phase at `frame`, then advance past it at `frequency` (steady: exact; else accumulated).
    /// `phase` always holds the phase of the next frame, for the hand-over between the two.
    @inline(__always)
    mutating func tick(frame: Int64, frequency: Double, steady: Bool) -> Double {
        var now = phase
        if steady {
            if frequency != baseFrequency {
                baseFrequency = frequency
                baseFrame = frame
                basePhase = phase
            }
            let cycles = Double(frame - baseFrame) * frequency / sampleRate
            now = basePhase + (cycles - FastMath.floor(cycles))
            if now >= 1 { now -= 1 }
        } else {
            baseFrequency = -1
        }
        var next = now + frequency * inverseRate
        if next >= 1 || next < 0 { next -= FastMath.floor(next) }
        phase = next
        return now
    }
}
