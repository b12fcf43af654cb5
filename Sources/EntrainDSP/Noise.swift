/// Deterministic noise: the same seed always gives the same samples, so offline renders equal live ones.

/// xoshiro128+ (public-domain algorithm by Blackman and Vigna): fast, 2^128-1 period.
public struct RandomSource {
    @usableFromInline var s0, s1, s2, s3: UInt32

    public init(seed: UInt64) {
        // SplitMix64 spreads any seed, including 0, over the whole state.
        var z = seed
        func mix() -> UInt64 {
            z &+= 0x9E37_79B9_7F4A_7C15
            var x = z
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            return x ^ (x >> 31)
        }
        let a = mix(), b = mix()
        s0 = UInt32(truncatingIfNeeded: a); s1 = UInt32(truncatingIfNeeded: a >> 32)
        s2 = UInt32(truncatingIfNeeded: b); s3 = UInt32(truncatingIfNeeded: b >> 32) | 1
    }

    @inlinable @inline(__always)
    public mutating func nextUInt32() -> UInt32 {
        let result = s0 &+ s3
        let t = s1 << 9
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 11) | (s3 >> 21)
        return result
    }

    /// Uniform in [-1, 1).
    @inlinable @inline(__always)
    public mutating func nextBipolar() -> Float {
        Float(Int32(bitPattern: nextUInt32() & 0xFFFF_FF00)) * (1.0 / 2_147_483_648.0)
    }
}

/// The noise colours, each scaled to the same RMS so switching colour keeps the loudness.
public enum NoiseColor: Int, CaseIterable, Sendable {
    case white = 0, pink, brown
    public var name: String { ["white", "pink", "brown"][rawValue] }
}

/// White, pink and brown noise from one random stream, all computed every sample so a colour
/// change is a crossfade, never a jump. RMS of each colour ≈ `NoiseGenerator.targetRMS`.
public struct NoiseGenerator {
    @inlinable public static var targetRMS: Float { 0.25 }
    @usableFromInline var random: RandomSource
    // Pink: Paul Kellet's published set of first-order low-passes plus a direct term (public-domain
    // numbers): a -3 dB/octave slope within about ±0.5 dB across the audio band at 44.1-48 kHz.
    @usableFromInline var p0: Float = 0, p1: Float = 0, p2: Float = 0, p3: Float = 0, p4: Float = 0, p5: Float = 0, p6: Float = 0
    @usableFromInline var brown: Float = 0

    public init(seed: UInt64) { random = RandomSource(seed: seed) }

    /// (white, pink, brown) for one sample.
    @inlinable @inline(__always)
    public mutating func next() -> (white: Float, pink: Float, brown: Float) {
        let w = random.nextBipolar()
        p0 = 0.99886 * p0 + w * 0.0555179
        p1 = 0.99332 * p1 + w * 0.0750759
        p2 = 0.96900 * p2 + w * 0.1538520
        p3 = 0.86650 * p3 + w * 0.3104856
        p4 = 0.55000 * p4 + w * 0.5329522
        p5 = -0.7616 * p5 - w * 0.0168980
        let pink = p0 + p1 + p2 + p3 + p4 + p5 + p6 + w * 0.5362
        p6 = w * 0.115926
        // Brown: leaky integrator, corner ≈ 10 Hz at 48 kHz; the leak keeps it from wandering off.
        brown = brown * 0.9987 + w * 0.05
        // Scale factors measured so each colour has RMS targetRMS (NoiseTests checks them).
        return (w * 0.4330, pink * 0.1423, brown * 0.4454)
    }
}
