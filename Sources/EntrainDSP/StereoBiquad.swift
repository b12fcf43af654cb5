/// Two channels through one set of `WebAudioBiquad` coefficients, side by side in the lanes of a
/// SIMD2 (transposed direct form II). Each lane does the scalar filter's arithmetic in the same
/// order, so its samples are the scalar filter's to the bit, for half the instructions.
public struct StereoBiquad {
    // Coefficients stored in both lanes already: no broadcast per sample.
    @usableFromInline var b0 = SIMD2<Float>(repeating: 1), b1 = SIMD2<Float>.zero, b2 = SIMD2<Float>.zero
    @usableFromInline var a1 = SIMD2<Float>.zero, a2 = SIMD2<Float>.zero
    @usableFromInline var z1 = SIMD2<Float>.zero, z2 = SIMD2<Float>.zero

    public init() {}

    /// `filter`'s coefficients from now on (the state is kept, as a parameter change does).
    @inlinable
    public mutating func takeCoefficients(of filter: WebAudioBiquad) {
        b0 = SIMD2(repeating: filter.b0); b1 = SIMD2(repeating: filter.b1); b2 = SIMD2(repeating: filter.b2)
        a1 = SIMD2(repeating: filter.a1); a2 = SIMD2(repeating: filter.a2)
    }

    @inlinable @inline(__always)
    public mutating func process(_ x: SIMD2<Float>) -> SIMD2<Float> {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    public mutating func reset() { z1 = .zero; z2 = .zero }
}
