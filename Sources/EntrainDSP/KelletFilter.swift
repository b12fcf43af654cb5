/// Paul Kellet's 7-pole pink filter (the "refined" one, public-domain numbers) on two lanes of
/// white noise: the pink of the entrainment noise bed and of the granulator's buffer fill.
/// Unscaled: each user scales to its own level. Lanes are independent, so one lane gives the
/// mono filter exactly. The six low-passes sit in pairs in four-lane vectors — [left, right]
/// of two poles each — so a step is three packed multiply-adds on SSE2 instead of six two-lane ones.
public struct KelletFilter {
    @usableFromInline var poles01 = SIMD4<Float>(), poles23 = SIMD4<Float>(), poles45 = SIMD4<Float>()
    @usableFromInline var b6 = SIMD2<Float>()

    public init() {}

    @inlinable static var feedback01: SIMD4<Float> { SIMD4(0.99886, 0.99886, 0.99332, 0.99332) }
    @inlinable static var feedback23: SIMD4<Float> { SIMD4(0.96900, 0.96900, 0.86650, 0.86650) }
    @inlinable static var feedback45: SIMD4<Float> { SIMD4(0.55000, 0.55000, -0.7616, -0.7616) }
    @inlinable static var input01: SIMD4<Float> { SIMD4(0.0555179, 0.0555179, 0.0750759, 0.0750759) }
    @inlinable static var input23: SIMD4<Float> { SIMD4(0.1538520, 0.1538520, 0.3104856, 0.3104856) }
    @inlinable static var input45: SIMD4<Float> { SIMD4(0.5329522, 0.5329522, -0.0168980, -0.0168980) }

    @inlinable @inline(__always)
    public mutating func step(_ w: SIMD2<Float>) -> SIMD2<Float> {
        let both = SIMD4(lowHalf: w, highHalf: w)
        poles01 = Self.feedback01 * poles01 + both * Self.input01
        poles23 = Self.feedback23 * poles23 + both * Self.input23
        poles45 = Self.feedback45 * poles45 + both * Self.input45
        let sum = poles01 + poles23 + poles45
        let pink = sum.lowHalf + sum.highHalf + b6 + w * 0.5362
        b6 = w * 0.115926
        return pink
    }
}
