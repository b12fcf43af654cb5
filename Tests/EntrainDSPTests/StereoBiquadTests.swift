import EntrainDSP
import XCTest

final class StereoBiquadTests: XCTestCase {
    /// Each lane gives the scalar filter's samples to the bit, through a coefficient change.
    func testLanesEqualTheScalarFilter() {
        var left = WebAudioBiquad(.lowpass, frequency: 900, q: 6, sampleRate: 48_000), right = left
        var pair = StereoBiquad()
        pair.takeCoefficients(of: left)
        var random = RandomSource(seed: 9)
        for n in 0..<20_000 {
            if n == 10_000 {
                let peaking = WebAudioBiquad(.peaking, frequency: 3000, q: 0.8, gainDecibels: 4, sampleRate: 48_000)
                left.set(.peaking, frequency: 3000, q: 0.8, gainDecibels: 4, sampleRate: 48_000)
                right.set(.peaking, frequency: 3000, q: 0.8, gainDecibels: 4, sampleRate: 48_000)
                pair.takeCoefficients(of: peaking)
            }
            let x = SIMD2(random.nextBipolar(), random.nextBipolar())
            let y = pair.process(x)
            XCTAssertEqual(y[0].bitPattern, left.process(x[0]).bitPattern)
            XCTAssertEqual(y[1].bitPattern, right.process(x[1]).bitPattern)
        }
    }
}
