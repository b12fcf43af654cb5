// Pure-Swift elementary functions for real-time kernels.
// libm's sin/exp/log are C calls that @_noLocks cannot see into, so kernels use these instead.
// Accuracy is far beyond what audio needs (see FastMathTests), and they are branch-light.

public enum FastMath {
    /// x + this − this rounds x to the nearest integer (|x| < 2^51) without a rounding
    /// instruction, which baseline x86-64 (SSE2) does not have; x + this holds that integer in
    /// the low bits of its bit pattern.
    public static let roundingBias = 6_755_399_441_055_744.0  // 2^52 + 2^51

    /// Largest whole number ≤ x, for |x| < 2^62 (Double.rounded(_:) takes its rule generically
    /// in unoptimised builds, which the real-time checker rejects). Below 2^51 by the rounding
    /// bias: a conversion to Int64 checks its range first, a compare and branch each way.
    @inlinable @inline(__always)
    public static func floor(_ x: Double) -> Double {
        let t = abs(x) < 2_251_799_813_685_248 ? (x + roundingBias) - roundingBias : Double(Int64(x))  // 2^51
        return t > x ? t - 1 : t
    }

    /// ⌊x⌋ as an index and x − ⌊x⌋, for 0 ≤ x < 2^31: a table read's point and fraction with
    /// no branch (`Int(x)` compares and branches three times first; a compare and correct after
    /// rounding became an unpredictable branch). x − ½ rounded to the nearest integer is ⌊x⌋,
    /// except at an exact odd integer k, whose tie rounds to k − 1 with a fraction of 1: the
    /// same point, at the end of the segment below it.
    @inlinable @inline(__always)
    public static func split(_ x: Double) -> (whole: Int, fraction: Double) {
        let biased = (x - 0.5) + roundingBias
        let whole = Int(UInt32(truncatingIfNeeded: biased.bitPattern))  // the integer's low bits
        return (whole, x - (biased - roundingBias))
    }

    /// sin(2π·turns). Absolute error below 1e-9 for |turns| < 2^62.
    @inlinable @inline(__always)
    public static func sinTurns(_ turns: Double) -> Double {
        // Reduce to [-0.5, 0.5), then fold to [-0.25, 0.25] using sin(π - x) = sin(x).
        var x = turns - floor(turns + 0.5)
        if x > 0.25 { x = 0.5 - x } else if x < -0.25 { x = -0.5 - x }
        let t = x * (2 * Double.pi)
        let t2 = t * t
        // Taylor series to t^15: truncation error < (π/2)^17/17! ≈ 6e-12.
        var p = -1.0 / 1_307_674_368_000
        p = p * t2 + 1.0 / 6_227_020_800
        p = p * t2 - 1.0 / 39_916_800
        p = p * t2 + 1.0 / 362_880
        p = p * t2 - 1.0 / 5040
        p = p * t2 + 1.0 / 120
        p = p * t2 - 1.0 / 6
        return t + t * t2 * p
    }

    /// cos(2π·turns).
    @inlinable @inline(__always)
    public static func cosTurns(_ turns: Double) -> Double { sinTurns(turns + 0.25) }

    /// 2^x for finite x; relative error below 1e-13. Saturates to 0 / infinity outside ±1000.
    @inlinable
    public static func exp2(_ x: Double) -> Double {
        if !(x > -1000) { return 0 }
        if x > 1000 { return .infinity }
        let whole = floor(x)
        let f = (x - whole) * 0.693_147_180_559_945_3  // ln 2 · frac, in [0, ln 2)
        // e^f by Taylor to f^14: error < 0.7^15/15! ≈ 4e-15.
        var p = 1.0 / 87_178_291_200
        p = p * f + 1.0 / 6_227_020_800
        p = p * f + 1.0 / 479_001_600
        p = p * f + 1.0 / 39_916_800
        p = p * f + 1.0 / 3_628_800
        p = p * f + 1.0 / 362_880
        p = p * f + 1.0 / 40320
        p = p * f + 1.0 / 5040
        p = p * f + 1.0 / 720
        p = p * f + 1.0 / 120
        p = p * f + 1.0 / 24
        p = p * f + 1.0 / 6
        p = p * f + 0.5
        p = p * f + 1
        p = p * f + 1
        // p·2^whole, exact: 2^whole built from its bits (whole is within ±1000 here, a normal
        // number; the generic Double(sign:exponent:significand:) was an out-of-line call).
        return p * Double(bitPattern: UInt64(Int(whole) + 1023) << 52)
    }

    /// log2(x) for x > 0; absolute error below 1e-12. Returns -infinity for 0 and NaN for x < 0.
    @inlinable
    public static func log2(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return .infinity }
        var m = x.significand  // [1, 2)
        var e = Double(x.exponent)
        if m > 1.414_213_562_373_095 { m *= 0.5; e += 1 }  // centre m on 1: [0.707, 1.414]
        // ln m = 2·atanh(t), t = (m-1)/(m+1) ∈ [-0.172, 0.172]
        let t = (m - 1) / (m + 1)
        let t2 = t * t
        var s = 1.0 / 19
        s = s * t2 + 1.0 / 17
        s = s * t2 + 1.0 / 15
        s = s * t2 + 1.0 / 13
        s = s * t2 + 1.0 / 11
        s = s * t2 + 1.0 / 9
        s = s * t2 + 1.0 / 7
        s = s * t2 + 1.0 / 5
        s = s * t2 + 1.0 / 3
        s = s * t2 + 1
        return e + 2 * t * s * 1.442_695_040_888_963_4  // / ln 2
    }

    /// Linear gain from decibels.
    @inlinable @inline(__always)
    public static func gain(fromDecibels db: Double) -> Double { exp2(db * 0.166_096_404_744_368_1) }  // log2(10)/20

    /// Decibels from linear gain (−infinity for 0).
    @inlinable @inline(__always)
    public static func decibels(fromGain g: Double) -> Double { 6.020_599_913_279_624 * log2(g) }  // 20·log10(2)
}
