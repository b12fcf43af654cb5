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

/// Stereo white, pink and brown noise: two independent streams (left, right) computed side by
/// side in SIMD lanes. Each colour is scaled to RMS ≈ `targetRMS`, so switching colour keeps the
/// loudness; crossfades use `next()`, the steady state `next(_:)`, which runs one colour only.
public struct StereoNoise {
    @inlinable public static var targetRMS: Float { 0.25 }
    // xoshiro128+ state, one generator per lane.
    @usableFromInline var s0, s1, s2, s3: SIMD2<UInt32>
    // Pink: Paul Kellet's published set of first-order low-passes plus a direct term (public-domain
    // numbers): a -3 dB/octave slope within about ±0.5 dB across the audio band at 44.1-48 kHz.
    @usableFromInline var pinkFilter = KelletFilter()
    @usableFromInline var brown = SIMD2<Float>()

    public init(leftSeed: UInt64, rightSeed: UInt64) {
        let l = RandomSource(seed: leftSeed), r = RandomSource(seed: rightSeed)
        s0 = [l.s0, r.s0]; s1 = [l.s1, r.s1]; s2 = [l.s2, r.s2]; s3 = [l.s3, r.s3]
    }

    /// Uniform white noise in [-1, 1) per lane (xoshiro128+, as RandomSource, lane-wise).
    @inlinable @inline(__always)
    mutating func white() -> SIMD2<Float> {
        let result = s0 &+ s3
        let t = s1 &<< 9
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 &<< 11) | (s3 &>> 21)
        let bits = SIMD2<Int32>(truncatingIfNeeded: result & 0xFFFF_FF00)
        return SIMD2<Float>(bits) * (1.0 / 2_147_483_648.0)
    }

    /// All three colours for one frame (lanes: left, right).
    @inlinable @inline(__always)
    public mutating func next() -> (white: SIMD2<Float>, pink: SIMD2<Float>, brown: SIMD2<Float>) {
        let w = white()
        return (w * 0.4330, pinkStep(w), brownStep(w))
    }

    /// One colour for one frame. The other colours' filters rest and resume from their old
    /// state, which is inaudible under the crossfade that brings them in.
    @inlinable @inline(__always)
    public mutating func next(_ color: NoiseColor) -> SIMD2<Float> {
        let w = white()
        switch color {
        case .white: return w * 0.4330
        case .pink: return pinkStep(w)
        case .brown: return brownStep(w)
        }
    }

    /// Add `gain` × one colour to `range` of `left`/`right`: the steady noise bed, with the
    /// colour chosen once per block instead of per frame (the same numbers as `next(_:)`).
    @inlinable @inline(__always)
    public mutating func add(_ color: NoiseColor, gain: Float, to left: UnsafeMutablePointer<Float>,
                             _ right: UnsafeMutablePointer<Float>, _ range: Range<Int>) {
        switch color {
        case .white: for i in range { accumulate(gain * (white() * 0.4330), left, right, i) }
        case .pink: for i in range { accumulate(gain * pinkStep(white()), left, right, i) }
        case .brown: for i in range { accumulate(gain * brownStep(white()), left, right, i) }
        }
    }

    @inlinable @inline(__always)
    func accumulate(_ n: SIMD2<Float>, _ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ i: Int) {
        left[i] += n.x
        right[i] += n.y
    }

    // Scale factors measured so each colour has RMS targetRMS (NoiseTests checks them).
    @inlinable @inline(__always)
    mutating func pinkStep(_ w: SIMD2<Float>) -> SIMD2<Float> { pinkFilter.step(w) * 0.1423 }

    /// Brown: leaky integrator, corner ≈ 10 Hz at 48 kHz; the leak keeps it from wandering off.
    @inlinable @inline(__always)
    mutating func brownStep(_ w: SIMD2<Float>) -> SIMD2<Float> {
        brown = brown * 0.9987 + w * 0.05
        return brown * 0.4454
    }
}
