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

    /// The largest magnitude of `count` samples; NaN or infinity if any sample is not finite.
    @inlinable @inline(__always)
    public static func peakOrNaN(_ x: UnsafePointer<Float>, count: Int) -> Float {
        Float(bitPattern: largestMagnitudeBits(x, count: count))
    }

    /// The largest magnitude of `count` finite samples, at least `floor`.
    @inlinable @inline(__always)
    public static func peak(_ x: UnsafePointer<Float>, count: Int, floor: Float) -> Float {
        max(floor, Float(bitPattern: largestMagnitudeBits(x, count: count)))
    }

    /// Pass `count` samples through a delay line: `output` gets what `delay` held, `delay` gets
    /// `input × gain` (`input` may be `output`: each sample is read before it is overwritten).
    @inlinable @inline(__always)
    public static func delay(_ input: UnsafePointer<Float>, by gain: Float, through delay: UnsafeMutablePointer<Float>,
                             into output: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let held = delay[i]
            delay[i] = input[i] * gain
            output[i] = held
        }
    }
}
