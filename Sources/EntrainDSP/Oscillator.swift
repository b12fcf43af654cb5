/// A double-precision phase accumulator reading band-limited wavetables.
/// Reading and advancing are separate so one phase can feed a crossfade of several waveforms,
/// and the phase stays continuous through any frequency change: frequency changes never click.
public struct Oscillator {
    public var phase: Double
    @usableFromInline var cachedFrequency: Double = -1
    @usableFromInline var level: Int = 0
    @usableFromInline var blend: Float = 0

    public init(phase: Double = 0) { self.phase = phase }

    /// The waveform's value at the current phase, band-limited for `frequency` Hz.
    @inlinable @inline(__always)
    public mutating func value(_ waveform: Waveform, frequency: Double, bank: WavetableBank) -> Float {
        if waveform == .sine { return bank.read(.sine, level: 0, phase: phase) }
        if frequency != cachedFrequency {
            (level, blend) = bank.levelBlend(for: abs(frequency))
            cachedFrequency = frequency
        }
        let a = bank.read(waveform, level: level, phase: phase)
        let b = bank.read(waveform, level: level + 1, phase: phase)
        return a + (b - a) * blend
    }

    /// Advance by one frame at `frequency` Hz (`inverseRate` = 1 / sample rate).
    @inlinable @inline(__always)
    public mutating func advance(frequency: Double, inverseRate: Double) {
        phase += frequency * inverseRate
        if phase >= 1 || phase < 0 { phase -= FastMath.floor(phase) }
    }
}
