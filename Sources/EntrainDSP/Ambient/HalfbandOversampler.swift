/// 2× oversampling around a nonlinearity, stereo (SIMD lanes = left, right), as Web Audio's
/// WaveShaperNode "2x" does: upsample, shape both sub-samples, low-pass and decimate.
/// Both steps use one half-band FIR h (Blackman-windowed sinc: centre 0.5, `taps` non-zero odd
/// taps per side, even taps zero), in polyphase form: the even sub-sample is the delayed input
/// itself, the odd one a symmetric sum, and decimation keeps only the even outputs.
/// Latency: 2·taps − 1 base-rate frames. Not Chromium's kernels, so the alias residue and
/// latency differ from a browser; the curve lookup itself is identical.
public struct HalfbandOversampler {
    public let taps: Int
    @usableFromInline let c: UnsafeMutablePointer<Float>  // c[i-1] = h(±(2i−1)); Σ = 0.25 (DC gain 1)
    @usableFromInline let input: UnsafeMutablePointer<SIMD2<Float>>  // input[j] = x[n − j], 2·taps
    @usableFromInline let odd: UnsafeMutablePointer<SIMD2<Float>>    // shaped odd sub-samples, 2·taps
    @usableFromInline let even: UnsafeMutablePointer<SIMD2<Float>>   // shaped even sub-samples, taps

    public var latency: Int { 2 * taps - 1 }

    public init(taps: Int = 8) {
        precondition(taps >= 1)
        self.taps = taps
        c = .allocate(capacity: taps)
        input = .allocate(capacity: 2 * taps); input.initialize(repeating: .zero, count: 2 * taps)
        odd = .allocate(capacity: 2 * taps); odd.initialize(repeating: .zero, count: 2 * taps)
        even = .allocate(capacity: taps); even.initialize(repeating: .zero, count: taps)
        // Half-band sinc at odd offsets t = 2i − 1: 0.5·sinc(t/2) = (−1)^(i+1)/(π·t), Blackman-windowed
        // over the 4·taps − 1 tap filter, then scaled so that 0.5 + 2·Σc = 1 exactly (unity at DC).
        let span = Double(4 * taps)
        var raw = [Double](repeating: 0, count: taps), sum = 0.0
        for i in 1...taps {
            let t = Double(2 * i - 1)
            let w = 0.42 + 0.5 * FastMath.cosTurns(t / span) + 0.08 * FastMath.cosTurns(2 * t / span)
            raw[i - 1] = (i % 2 == 1 ? 1 : -1) * w / (Double.pi * t)
            sum += raw[i - 1]
        }
        for i in 0..<taps { c[i] = Float(raw[i] * 0.25 / sum) }
    }

    public func deallocate() { c.deallocate(); input.deallocate(); odd.deallocate(); even.deallocate() }

    public mutating func reset() {
        input.update(repeating: .zero, count: 2 * taps)
        odd.update(repeating: .zero, count: 2 * taps)
        even.update(repeating: .zero, count: taps)
    }

    /// One base-rate frame through `shape` at twice the rate.
    @inlinable @inline(__always)
    public mutating func process(_ x: SIMD2<Float>, _ shape: (SIMD2<Float>) -> SIMD2<Float>) -> SIMD2<Float> {
        let p = taps
        var j = 2 * p - 1
        while j > 0 { input[j] = input[j - 1]; j -= 1 }
        input[0] = x
        // Upsample: even = x[n − P]; odd = midpoint between x[n − P] and x[n − P + 1].
        var mid = SIMD2<Float>.zero
        for i in 1...p { mid += c[i - 1] * (input[p - i] + input[p - 1 + i]) }
        // The zero-stuffed stream is filtered by 2h, hence the 2 on the odd phase.
        let e = shape(input[p]), o = shape(2 * mid)
        j = 2 * p - 1
        while j > 0 { odd[j] = odd[j - 1]; j -= 1 }
        odd[0] = o
        j = p - 1
        while j > 0 { even[j] = even[j - 1]; j -= 1 }
        even[0] = e
        // Decimate: 0.5·E[m] + Σ c_i·(O[m − i] + O[m + i − 1]) with m = n − P + 1.
        var acc = 0.5 * even[p - 1]
        for i in 1...p { acc += c[i - 1] * (odd[p - 1 + i] + odd[p - i]) }
        return acc
    }
}
