/// A struck bell: a sine whose level jumps up over a 2 ms attack (no click, even on a bell still
/// ringing) and then decays exponentially, as SBaGen's bell does (about 1/12 of its level lost
/// every 50 ms: −15.1 dB a second).
public struct BellTone {
    public var phase = 0.0
    public var level = 0.0  // stored publicly so inlinable code can update it
    @usableFromInline var attackStep = 0.0
    @usableFromInline var attackLeft = 0
    @usableFromInline let decay: Double
    @usableFromInline let attackFrames: Int

    /// `decibelsPerSecond`: how fast the ring fades (SBaGen: 20·log10(11/12)·20 ≈ −15.1).
    public init(sampleRate: Double, decibelsPerSecond: Double = -15.116) {
        decay = FastMath.exp2(decibelsPerSecond / 20 * 3.321_928_094_887_362 / sampleRate)  // 10^(dB/20/rate)
        attackFrames = max(1, Int(0.002 * sampleRate))
    }

    /// Strike at `level` (0…1): the ring rises to it over the attack.
    public mutating func strike(level target: Double) {
        attackLeft = attackFrames
        attackStep = (target - level) / Double(attackFrames)
    }

    /// Still sounding (above −100 dBFS).
    @inlinable public var isRinging: Bool { attackLeft > 0 || level > 1e-5 }

    /// The next sample at `frequency`.
    @inlinable @inline(__always)
    public mutating func next(frequency: Double, inverseRate: Double) -> Double {
        let value = level * FastMath.sinTurns(phase)
        if attackLeft > 0 {
            level += attackStep
            attackLeft -= 1
        } else {
            level *= decay
            if level < 1e-5 { level = 0 }
        }
        phase += frequency * inverseRate
        if phase >= 1 { phase -= 1 }
        return value
    }
}
