/// sin(2π·turns) of the lead's operator phases, a SIMD vector of them at once: the phase folded to
/// the nearest half turn, then an odd degree-9 polynomial. Only multiplies and adds, no table
/// reads and no lane-wise choices, so a register of phases is one pass (the 4096-point table it
/// replaced took one scalar gather per phase). Error below 3.4e-9 for turns in [0, 1] (the
/// table's: 3.5e-7); the coefficients are a minimax fit of sin(2πx)/x in x² on [0, 0.25].
enum OperatorSine {
    /// x + this − this rounds x to the nearest integer (|x| < 2^51) without a rounding
    /// instruction, which baseline x86-64 (SSE2) does not have.
    static let roundingBias = 6_755_399_441_055_744.0  // 2^52 + 2^51

    @inline(__always)
    static func of<V: SIMD>(_ turns: V) -> V where V.Scalar == Double {
        let halfTurns = (turns * 2 + roundingBias) - roundingBias  // 0, 1 or 2
        let x = turns - halfTurns * 0.5  // in [−0.25, 0.25], exact
        let odd = halfTurns - 1
        let sign = odd * odd * 2 - 1  // (−1)^halfTurns: sin(2πx + π·halfTurns)
        let x2 = x * x
        var p = V(repeating: 39.536_807_066_081_195)
        p = p * x2 - 76.549_795_027_921_89
        p = p * x2 + 81.601_004_600_744_32
        p = p * x2 - 41.341_655_039_356_37
        p = p * x2 + 6.283_185_160_120_921
        return x * p * sign
    }
}
