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
    // The three delay lines are rings stored twice over (each value written at k and k + length),
    // so line[j] = newest-first history is one contiguous read from the ring's position: no
    // shifting of every element on every sample.
    @usableFromInline let input: UnsafeMutablePointer<SIMD2<Float>>  // x[n − j], 2·taps long
    @usableFromInline let odd: UnsafeMutablePointer<SIMD2<Float>>    // shaped odd sub-samples, 2·taps
    @usableFromInline let even: UnsafeMutablePointer<SIMD2<Float>>   // shaped even sub-samples, taps
    @usableFromInline var inputAt = 0, oddAt = 0, evenAt = 0

    public var latency: Int { 2 * taps - 1 }
    /// The filter's odd-offset coefficients, h(±1), h(±3), …
    public var coefficients: [Float] { Array(UnsafeBufferPointer(start: c, count: taps)) }

    public init(taps: Int = 8) {
        precondition(taps >= 1)
        self.taps = taps
        c = .allocate(capacity: taps)
        input = .allocate(capacity: 4 * taps); input.initialize(repeating: .zero, count: 4 * taps)
        odd = .allocate(capacity: 4 * taps); odd.initialize(repeating: .zero, count: 4 * taps)
        even = .allocate(capacity: 2 * taps); even.initialize(repeating: .zero, count: 2 * taps)
        c.initialize(from: Self.coefficients(taps: taps), count: taps)
    }

    /// The odd-offset coefficients h(±1), h(±3), … of the filter with `taps` of them per side.
    public static func coefficients(taps: Int) -> [Float] {
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
        return raw.map { Float($0 * 0.25 / sum) }
    }

    public func deallocate() { c.deallocate(); input.deallocate(); odd.deallocate(); even.deallocate() }

    public mutating func reset() {
        input.update(repeating: .zero, count: 4 * taps)
        odd.update(repeating: .zero, count: 4 * taps)
        even.update(repeating: .zero, count: 2 * taps)
    }

    /// One base-rate frame through `shape` at twice the rate.
    @inlinable @inline(__always)
    public mutating func process(_ x: SIMD2<Float>, _ shape: (SIMD2<Float>) -> SIMD2<Float>) -> SIMD2<Float> {
        let p = taps
        let input = Self.push(x, into: self.input, length: 2 * p, at: &inputAt)
        // Upsample: even = x[n − P]; odd = midpoint between x[n − P] and x[n − P + 1].
        var mid = SIMD2<Float>.zero
        for i in 0..<p { mid += c[i] * (input[p - 1 - i] + input[p + i]) }  // c[i] = h(±(2i+1))
        // The zero-stuffed stream is filtered by 2h, hence the 2 on the odd phase.
        let e = shape(input[p]), o = shape(2 * mid)
        let odd = Self.push(o, into: self.odd, length: 2 * p, at: &oddAt)
        let even = Self.push(e, into: self.even, length: p, at: &evenAt)
        // Decimate: 0.5·E[m] + Σ c_i·(O[m − i] + O[m + i − 1]) with m = n − P + 1.
        var acc = 0.5 * even[p - 1]
        for i in 0..<p { acc += c[i] * (odd[p + i] + odd[p - 1 - i]) }
        return acc
    }

    /// Write the newest value into a doubled ring; the history newest-first starts at the result.
    @inlinable @inline(__always)
    static func push<Lanes>(_ value: Lanes, into ring: UnsafeMutablePointer<Lanes>, length: Int,
                            at position: inout Int) -> UnsafeMutablePointer<Lanes> {
        position = position == 0 ? length - 1 : position - 1
        ring[position] = value
        ring[position + length] = value
        return ring + position
    }
}
