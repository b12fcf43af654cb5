/// Whole-block loops for the kernels' steady states. Plain counted loops over raw pointers,
/// which the optimiser turns into vector code (checked in the release binary's disassembly;
/// Swift's generic SIMD functions were not specialised there and ran slower than scalar code).
/// The reductions work on magnitudes' bit patterns: for finite floats their unsigned integer
/// order is the float order, and an integer maximum vectorises where a float one may not.
public enum BlockMath {
    /// `x[i] *= gain` for `count` samples.
    @inlinable @inline(__always)
    public static func scale(_ x: UnsafeMutablePointer<Float>, count: Int, by gain: Float) {
        for i in 0..<count { x[i] *= gain }
    }

    /// `out[i] = x[i] * gain` for `count` samples.
    @inlinable @inline(__always)
    public static func scale(_ x: UnsafePointer<Float>, by gain: Float, into out: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { out[i] = x[i] * gain }
    }

    /// The largest magnitude's bit pattern (NaN and infinities rank above every finite value).
    @inlinable @inline(__always)
    static func largestMagnitudeBits(_ x: UnsafePointer<Float>, count: Int) -> UInt32 {
        var largest: UInt32 = 0
        for i in 0..<count { largest = max(largest, x[i].bitPattern & 0x7FFF_FFFF) }
        return largest
    }

    /// True when every sample is finite and within ±`limit` (false for NaN and infinities).
    @inlinable @inline(__always)
    public static func allWithin(_ x: UnsafePointer<Float>, count: Int, limit: Float) -> Bool {
        largestMagnitudeBits(x, count: count) <= abs(limit).bitPattern
    }

    /// The largest magnitude of `count` finite samples, at least `floor`.
    @inlinable @inline(__always)
    public static func peak(_ x: UnsafePointer<Float>, count: Int, floor: Float) -> Float {
        max(floor, Float(bitPattern: largestMagnitudeBits(x, count: count)))
    }

    /// Swap `count` samples between `x` and `y` (a delay line and a block passing through it).
    @inlinable @inline(__always)
    public static func swap(_ x: UnsafeMutablePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let a = x[i]
            x[i] = y[i]
            y[i] = a
        }
    }
}
