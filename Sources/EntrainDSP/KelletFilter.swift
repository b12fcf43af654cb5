/// Paul Kellet's 7-pole pink filter (the "refined" one) on two lanes of white noise: the pink
/// of the entrainment noise bed and of the granulator's buffer fill. Unscaled: each user
/// scales to its own level. Lanes are independent, so one lane gives the mono filter exactly.
public struct KelletFilter {
    @usableFromInline var b0 = SIMD2<Float>(), b1 = SIMD2<Float>(), b2 = SIMD2<Float>(), b3 = SIMD2<Float>()
    @usableFromInline var b4 = SIMD2<Float>(), b5 = SIMD2<Float>(), b6 = SIMD2<Float>()

    public init() {}

    @inlinable @inline(__always)
    public mutating func step(_ w: SIMD2<Float>) -> SIMD2<Float> {
        b0 = 0.99886 * b0 + w * 0.0555179
        b1 = 0.99332 * b1 + w * 0.0750759
        b2 = 0.96900 * b2 + w * 0.1538520
        b3 = 0.86650 * b3 + w * 0.3104856
        b4 = 0.55000 * b4 + w * 0.5329522
        b5 = -0.7616 * b5 - w * 0.0168980
        let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362
        b6 = w * 0.115926
        return pink
    }
}
