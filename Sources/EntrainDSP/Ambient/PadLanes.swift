/// The pad ensemble's six voices from their filters on — main filter, low shelf, peak, the
/// tanh shaper 2× oversampled, the envelope gain — side by side in the lanes of SIMD16s: lane v
/// is voice v's left channel, lane 8 + v its right (lanes 6, 7, 14 and 15 idle). The voices
/// always get the same filter settings and timbre, so one set of controls and coefficients and
/// one curve serve all six. Each lane does the arithmetic `PadVoice.next()` does for its voice,
/// in the same order, so its samples are that voice's to the bit, for a third of the work.
struct PadLanes {
    typealias Lanes = SIMD16<Float>
    static var taps: Int { 8 }

    var controls: PadFilterControls
    var filter = LaneBiquad(), shelf = LaneBiquad(), peak = LaneBiquad()
    var shaper: TanhShaper
    /// The half-band filter's odd-offset coefficients (HalfbandOversampler's).
    let c: UnsafeMutablePointer<Float>
    // Doubled rings, as in HalfbandOversampler: input 2·taps, odd 2·taps, even taps long.
    let input: UnsafeMutablePointer<Lanes>, odd: UnsafeMutablePointer<Lanes>, even: UnsafeMutablePointer<Lanes>
    var inputAt = 0, oddAt = 0, evenAt = 0

    init(sampleRate: Double, hardness: Double) {
        controls = PadFilterControls(sampleRate: sampleRate)
        shaper = TanhShaper(hardness: hardness)
        let p = Self.taps
        c = .allocate(capacity: p)
        c.initialize(from: HalfbandOversampler.coefficients(taps: p), count: p)
        input = .allocate(capacity: 4 * p); input.initialize(repeating: .zero, count: 4 * p)
        odd = .allocate(capacity: 4 * p); odd.initialize(repeating: .zero, count: 4 * p)
        even = .allocate(capacity: 2 * p); even.initialize(repeating: .zero, count: 2 * p)
    }

    func deallocate() {
        shaper.deallocate(); c.deallocate(); input.deallocate(); odd.deallocate(); even.deallocate()
    }

    /// New coefficients from `controls` for all three filters.
    mutating func takeCoefficients() {
        filter.takeCoefficients(of: controls.filter)
        shelf.takeCoefficients(of: controls.shelf)
        peak.takeCoefficients(of: controls.peak)
    }

    /// One frame: `x` (each lane's filter input) through the filters, the oversampled shaper
    /// and `level` (each lane's envelope gain).
    @inline(__always)
    mutating func process(_ x: Lanes, level: Lanes) -> Lanes {
        if controls.tick() { takeCoefficients() }
        let y = peak.process(shelf.process(filter.process(x)))
        let p = Self.taps
        let input = HalfbandOversampler.push(y, into: self.input, length: 2 * p, at: &inputAt)
        var mid = Lanes.zero
        for i in 0..<p { mid += c[i] * (input[p - 1 - i] + input[p + i]) }
        let e = shape(input[p]), o = shape(2 * mid)
        let odd = HalfbandOversampler.push(o, into: self.odd, length: 2 * p, at: &oddAt)
        let even = HalfbandOversampler.push(e, into: self.even, length: p, at: &evenAt)
        var acc = 0.5 * even[p - 1]
        for i in 0..<p { acc += c[i] * (odd[p + i] + odd[p - 1 - i]) }
        return acc * level
    }

    /// The curve on the twelve used lanes (the idle ones stay 0), built from scalars at once:
    /// assigning lane by lane went through memory for every lane.
    @inline(__always)
    func shape(_ x: Lanes) -> Lanes {
        let s = shaper
        return Lanes(s.process(x[0]), s.process(x[1]), s.process(x[2]), s.process(x[3]), s.process(x[4]), s.process(x[5]), 0, 0,
                     s.process(x[8]), s.process(x[9]), s.process(x[10]), s.process(x[11]), s.process(x[12]), s.process(x[13]), 0, 0)
    }
}

/// A biquad with one set of coefficients for the sixteen lanes of `PadLanes` (StereoBiquad's
/// arithmetic, lane for lane).
struct LaneBiquad {
    // Coefficients stored in every lane already: no broadcast per sample.
    var b0 = SIMD16<Float>(repeating: 1), b1 = SIMD16<Float>.zero, b2 = SIMD16<Float>.zero
    var a1 = SIMD16<Float>.zero, a2 = SIMD16<Float>.zero
    var z1 = SIMD16<Float>.zero, z2 = SIMD16<Float>.zero

    mutating func takeCoefficients(of filter: WebAudioBiquad) {
        b0 = SIMD16(repeating: filter.b0); b1 = SIMD16(repeating: filter.b1); b2 = SIMD16(repeating: filter.b2)
        a1 = SIMD16(repeating: filter.a1); a2 = SIMD16(repeating: filter.a2)
    }

    @inline(__always)
    mutating func process(_ x: SIMD16<Float>) -> SIMD16<Float> {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}
