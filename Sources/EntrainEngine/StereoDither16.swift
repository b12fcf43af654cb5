import EntrainDSP

/// 16-bit conversion of a stereo pair, interleaving as it goes: two frames per step, with four
/// independent TPDF dither generators in SIMD lanes (xoshiro128+, as RandomSource, lane-wise),
/// so the loop has no serial chain through one generator. Deterministic: same input, same bytes.
struct StereoDither16 {
    var s0, s1, s2, s3: SIMD4<UInt32>

    init(seed: UInt64) {
        var source = RandomSource(seed: seed)  // spreads the seed over all sixteen words
        func lanes() -> SIMD4<UInt32> { SIMD4(source.nextUInt32(), source.nextUInt32(), source.nextUInt32(), source.nextUInt32()) }
        s0 = lanes(); s1 = lanes(); s2 = lanes(); s3 = lanes() | 1  // never an all-zero state
    }

    @inline(__always)
    mutating func next() -> SIMD4<UInt32> {
        let result = s0 &+ s3
        let t = s1 &<< 9
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 &<< 11) | (s3 &>> 21)
        return result
    }

    /// The code for one sample: x·32768 plus ±1 LSB triangular noise from `bits`, rounded to the
    /// nearest code and clamped to the 16-bit range (+1.0 gives the largest code). In Float: at
    /// 16 bits the rounding of the sum is below 1/256 LSB. NaN becomes silence. Scalar per lane:
    /// Swift's generic SIMD conversions were not specialised and cost more than this.
    @inline(__always)
    static func code(_ x: Float, _ bits: UInt32) -> Int16 {
        let noise = Float(Int32(bits & 0xFFFF) &+ Int32(bits >> 16)) * (1.0 / 65536) - 1
        let v = min(max((x == x ? x : 0) * 32768 + noise, -32768), 32767)
        let magic: Float = 12_582_912  // 1.5·2^23: the sum's low mantissa bits hold the rounded integer
        return Int16(truncatingIfNeeded: Int32(bitPattern: (v + magic).bitPattern &- magic.bitPattern))
    }

    /// Convert `n` frames into `out` (2n interleaved samples); returns how many frames it did (an
    /// even number: the caller converts a last odd frame on its own).
    @inline(__always)
    mutating func convert(_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>,
                          into out: UnsafeMutableRawPointer, frames n: Int) -> Int {
        var i = 0
        while i + 2 <= n {
            let bits = next()
            let o = out.assumingMemoryBound(to: Int16.self) + 2 * i
            o[0] = Self.code(left[i], bits[0]).littleEndian
            o[1] = Self.code(right[i], bits[1]).littleEndian
            o[2] = Self.code(left[i + 1], bits[2]).littleEndian
            o[3] = Self.code(right[i + 1], bits[3]).littleEndian
            i += 2
        }
        return i
    }
}
