import EntrainDSP
import XCTest

final class PeakLimiterTests: XCTestCase {
    /// Worst inputs: full-scale noise ×8, single-sample spikes, bursts after long quiet stretches
    /// (the limiter's idle path), NaN and infinity. Nothing may pass the ceiling, ever.
    func testCeilingHoldsForAnyInput() {
        for ceilingDB in [-1.0, -6.0, -0.1] {
            var limiter = PeakLimiter(sampleRate: 48_000, ceilingDecibels: ceilingDB)
            defer { limiter.deallocate() }
            let ceiling = Float(pow(10, ceilingDB / 20))
            var random = RandomSource(seed: 7)
            var worst: Float = 0
            for i in 0..<400_000 {
                var l: Float, r: Float
                switch (i / 20_000) % 4 {
                case 0: l = 8 * random.nextBipolar(); r = 8 * random.nextBipolar()
                case 1: l = i % 997 == 0 ? 50 : 0.01; r = i % 1499 == 0 ? -30 : 0
                case 2: l = i % 20_000 > 15_000 ? 4 * random.nextBipolar() : 0.2 * random.nextBipolar(); r = l
                default: l = i % 5000 == 0 ? .nan : (i % 5001 == 0 ? .infinity : 2); r = -l
                }
                limiter.process(&l, &r)
                XCTAssertFalse(l.isNaN || r.isNaN)
                worst = max(worst, abs(l), abs(r))
            }
            XCTAssertLessThanOrEqual(worst, ceiling, "ceiling \(ceilingDB) dBFS exceeded")
            XCTAssertEqual(limiter.clampedFrames, 0, "the gain path let peaks through to the safety clamp")
            XCTAssertGreaterThan(worst, ceiling * 0.95, "the test must actually drive the limiter")
        }
    }

    /// Below the ceiling the limiter is a pure delay: the signal comes out bit for bit.
    func testQuietSignalPassesUnchanged() {
        var limiter = PeakLimiter(sampleRate: 48_000, ceilingDecibels: -1)
        defer { limiter.deallocate() }
        var random = RandomSource(seed: 3)
        var input: [Float] = [], output: [Float] = []
        for _ in 0..<10_000 {
            let x = 0.5 * random.nextBipolar()
            var l = x, r = -x
            limiter.process(&l, &r)
            input.append(x)
            output.append(l)
        }
        let d = limiter.latency
        XCTAssertEqual(Array(output[d...]), Array(input[..<(input.count - d)]))
    }

    func testGainRecoversAfterAPeak() {
        var limiter = PeakLimiter(sampleRate: 48_000, ceilingDecibels: -1, releaseSeconds: 0.05)
        defer { limiter.deallocate() }
        var l: Float = 4, r: Float = 4
        limiter.process(&l, &r)
        XCTAssertLessThan(limiter.gain, 1)
        for _ in 0..<48_000 {  // one second of quiet: many release time constants
            var a: Float = 0.1, b: Float = 0.1
            limiter.process(&a, &b)
        }
        XCTAssertEqual(limiter.gain, 1)
    }
}
