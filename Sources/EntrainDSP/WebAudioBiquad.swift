/// A biquad filter with Web Audio's BiquadFilterNode semantics (the Kessho engine is written
/// against them): RBJ Audio-EQ-Cookbook coefficients, except that for lowpass and highpass
/// the Q is in decibels (linear Q = 10^(Q/20), so the default Q 1 gives 1.122 at the cutoff);
/// bandpass, notch, peaking and allpass take a linear Q; shelves ignore Q (slope 1); gains are
/// in dB. Coefficients use our own sine and exponentials, so they can be recomputed on the
/// process thread. Transposed direct form II, one channel.
public struct WebAudioBiquad {
    public enum Kind: Int, Sendable, BitwiseCopyable { case lowpass = 0, highpass, bandpass, lowshelf, highshelf, peaking, notch, allpass }

    @usableFromInline var b0: Float = 1, b1: Float = 0, b2: Float = 0, a1: Float = 0, a2: Float = 0
    @usableFromInline var z1: Float = 0, z2: Float = 0

    public init() {}

    public init(_ kind: Kind, frequency: Double, q: Double, gainDecibels: Double = 0, sampleRate: Double) {
        set(kind, frequency: frequency, q: q, gainDecibels: gainDecibels, sampleRate: sampleRate)
    }

    /// New coefficients (the state is kept, as a Web Audio parameter change does).
    @inlinable
    public mutating func set(_ kind: Kind, frequency: Double, q: Double, gainDecibels: Double, sampleRate: Double) {
        let turns = min(max(frequency / sampleRate, 0), 0.5)
        let sine = FastMath.sinTurns(turns), cosine = FastMath.cosTurns(turns)
        // The gain's two exponentials only for the kinds that use it (a filter walk retunes
        // a low-pass many times a second).
        let usesGain = kind == .peaking || kind == .lowshelf || kind == .highshelf
        let A = usesGain ? FastMath.gain(fromDecibels: gainDecibels * 0.5) : 1      // 10^(G/40)
        let rootA = usesGain ? FastMath.gain(fromDecibels: gainDecibels * 0.25) : 1 // √A
        var n0 = 1.0, n1 = 0.0, n2 = 0.0, d0 = 1.0, d1 = 0.0, d2 = 0.0
        switch kind {
        case .lowpass, .highpass:
            let alpha = sine / (2 * FastMath.gain(fromDecibels: q))
            let sign = kind == .lowpass ? -1.0 : 1.0
            n0 = (1 + sign * cosine) / 2
            n1 = -sign * (1 + sign * cosine)
            n2 = n0
            d0 = 1 + alpha; d1 = -2 * cosine; d2 = 1 - alpha
        case .bandpass, .notch, .allpass, .peaking:
            let alpha = sine / (2 * max(q, 1e-4))
            d0 = 1 + alpha; d1 = -2 * cosine; d2 = 1 - alpha
            switch kind {
            case .bandpass: n0 = alpha; n1 = 0; n2 = -alpha
            case .notch: n0 = 1; n1 = -2 * cosine; n2 = 1
            case .allpass: n0 = 1 - alpha; n1 = -2 * cosine; n2 = 1 + alpha
            default:
                n0 = 1 + alpha * A; n1 = -2 * cosine; n2 = 1 - alpha * A
                d0 = 1 + alpha / A; d2 = 1 - alpha / A
            }
        case .lowshelf, .highshelf:
            let alpha = sine * 0.707_106_781_186_547_6  // sin(w0)/2 · √2: slope 1
            let s = kind == .lowshelf ? 1.0 : -1.0
            let twoRootAAlpha = 2 * rootA * alpha
            n0 = A * ((A + 1) - s * (A - 1) * cosine + twoRootAAlpha)
            n1 = s * 2 * A * ((A - 1) - s * (A + 1) * cosine)
            n2 = A * ((A + 1) - s * (A - 1) * cosine - twoRootAAlpha)
            d0 = (A + 1) + s * (A - 1) * cosine + twoRootAAlpha
            d1 = -s * 2 * ((A - 1) + s * (A + 1) * cosine)
            d2 = (A + 1) + s * (A - 1) * cosine - twoRootAAlpha
        }
        b0 = Float(n0 / d0); b1 = Float(n1 / d0); b2 = Float(n2 / d0)
        a1 = Float(d1 / d0); a2 = Float(d2 / d0)
    }

    @inlinable @inline(__always)
    public mutating func process(_ x: Float) -> Float {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    public mutating func reset() { z1 = 0; z2 = 0 }
}
