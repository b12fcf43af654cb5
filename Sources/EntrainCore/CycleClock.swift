/// The line that maps engine frames onto JACK's clock, for time tags: where each cycle starts,
/// in µs. JACK's own estimate of a cycle's start (`jack_get_cycle_times`) moves by hundreds of
/// µs from cycle to cycle on a loaded machine (its filter starts again after an xrun), and two
/// OSC bundles one second apart, mapped in different cycles, landed 47,992 frames apart instead
/// of 48,000. So the line runs on at the nominal rate and takes a twentieth of each cycle's
/// error (a sound card 100 ppm off the nominal rate stays about 11 µs behind); an error of half
/// a period or more is a real step (the client missed a cycle: the engine's frames stood still
/// while time ran on; or a new server), and the line starts again there. Arithmetic only: safe
/// on the process thread.
public struct CycleClock: Sendable {
    private var frame: Int64 = 0
    private var micros: Double = 0
    private var started = false
    static let pull = 0.05

    public init() {}

    /// A cycle starting at engine frame `engineFrame`, JACK's estimate of its start `cycleMicros`:
    /// the line's time for that frame (µs).
    public mutating func cycle(engineFrame: Int64, cycleMicros: UInt64, sampleRate: Double, periodFrames: Int) -> UInt64 {
        let measured = Double(cycleMicros)
        if started, sampleRate > 0 {
            let predicted = micros + Double(engineFrame - frame) * 1e6 / sampleRate
            let error = measured - predicted
            micros = abs(error) < 0.5 * Double(periodFrames) * 1e6 / sampleRate ? predicted + Self.pull * error : measured
        } else {
            micros = measured
            started = true
        }
        frame = engineFrame
        return UInt64(max(0, micros.rounded()))
    }
}
