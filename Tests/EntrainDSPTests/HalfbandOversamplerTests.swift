import EntrainDSP
import XCTest

final class HalfbandOversamplerTests: XCTestCase {
    /// The delay lines are doubled rings; this is the straightforward form they replaced, which
    /// shifts every line by one on every sample. Both must give the same bits.
    private struct ShiftingReference {
        let taps: Int, c: [Float]
        var input: [SIMD2<Float>], odd: [SIMD2<Float>], even: [SIMD2<Float>]

        init(taps: Int, coefficients: [Float]) {
            self.taps = taps
            c = coefficients
            input = Array(repeating: .zero, count: 2 * taps)
            odd = Array(repeating: .zero, count: 2 * taps)
            even = Array(repeating: .zero, count: taps)
        }

        mutating func process(_ x: SIMD2<Float>, _ shape: (SIMD2<Float>) -> SIMD2<Float>) -> SIMD2<Float> {
            let p = taps
            input.insert(x, at: 0); input.removeLast()
            var mid = SIMD2<Float>.zero
            for i in 1...p { mid += c[i - 1] * (input[p - i] + input[p - 1 + i]) }
            let e = shape(input[p]), o = shape(2 * mid)
            odd.insert(o, at: 0); odd.removeLast()
            even.insert(e, at: 0); even.removeLast()
            var acc = 0.5 * even[p - 1]
            for i in 1...p { acc += c[i - 1] * (odd[p - 1 + i] + odd[p - i]) }
            return acc
        }
    }

    func testRingDelayLinesGiveTheShiftingLinesOutputBitForBit() {
        for taps in [1, 3, 8] {
            var oversampler = HalfbandOversampler(taps: taps)
            defer { oversampler.deallocate() }
            // The coefficients, read back from the filter's impulse response on the odd phase.
            var reference = ShiftingReference(taps: taps, coefficients: oversampler.coefficients)
            var random = SystemRandomNumberGenerator()
            let shape: (SIMD2<Float>) -> SIMD2<Float> = { $0 - $0 * $0 * $0 / 3 }  // a soft clip: odd phase matters
            for n in 0..<5_000 {
                let x = SIMD2(Float.random(in: -1...1, using: &random), Float.random(in: -1...1, using: &random))
                let got = oversampler.process(x, shape), want = reference.process(x, shape)
                guard got == want else { return XCTFail("taps \(taps), sample \(n): \(got) against \(want)") }
            }
        }
    }
}
