/// An analytic-signal pair without latency: two chains of allpass filters whose outputs differ
/// by 90° (± 0.7°) over almost the whole band (about 0.002 to 0.498 of the sample rate), so
/// `inPhase + i·quadrature` is the input's analytic signal up to a common phase response.
/// Multiplying it by a complex exponential shifts every partial by the same number of hertz:
/// the single-sideband frequency shifter under `mixbeat`. No block, no look-ahead: nothing to
/// report to JACK. The coefficients are Olli Niemitalo's published 8th-order pair.
public struct HilbertPair {
    /// One section: y[n] = c·(x[n] + y[n−2]) − x[n−2], an allpass in z⁻².
    @usableFromInline
    struct Section {
        @usableFromInline let c: Double
        @usableFromInline var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        @usableFromInline init(_ a: Double) { c = a * a }

        @inlinable @inline(__always)
        mutating func process(_ x: Double) -> Double {
            let y = c * (x + y2) - x2
            x2 = x1; x1 = x
            y2 = y1; y1 = y
            return y
        }
    }

    @usableFromInline var a0 = Section(0.692_387_8), a1 = Section(0.936_065_432_295_9)
    @usableFromInline var a2 = Section(0.988_229_522_686_0), a3 = Section(0.998_748_845_273_7)
    @usableFromInline var b0 = Section(0.402_192_116_242_6), b1 = Section(0.856_171_088_242_0)
    @usableFromInline var b2 = Section(0.972_290_954_565_1), b3 = Section(0.995_288_479_127_8)
    /// The first chain's output one frame late: the network's definition.
    @usableFromInline var delayed = 0.0

    public init() {}

    /// One input sample in; the in-phase and quadrature (90° behind) outputs for it.
    @inlinable @inline(__always)
    public mutating func process(_ x: Double) -> (inPhase: Double, quadrature: Double) {
        let a = a3.process(a2.process(a1.process(a0.process(x))))
        let inPhase = delayed
        delayed = a
        let quadrature = b3.process(b2.process(b1.process(b0.process(x))))
        return (inPhase, quadrature)
    }
}
