import EntrainDSP
import XCTest

/// The limiter's whole-block path (taken while it idles) must give exactly what it gives frame by
/// frame, whatever the block size and wherever quiet stretches, overs and NaN fall.
final class PeakLimiterBlockTests: XCTestCase {
    /// Quiet stretches longer than the look-ahead (the block path), overs, NaN and infinity.
    func signal(frames: Int) -> (left: [Float], right: [Float]) {
        var random = RandomSource(seed: 11)
        var left: [Float] = [], right: [Float] = []
        for i in 0..<frames {
            var l = 0.3 * random.nextBipolar(), r = 0.3 * random.nextBipolar()
            switch (i / 3000) % 5 {
            case 1 where i % 3000 < 40: l *= 6  // a burst over the ceiling
            case 3 where i % 3000 == 1234: l = .nan; r = .infinity
            case 4: r = i % 700 == 0 ? -2 : r  // single-sample spikes
            default: break
            }
            left.append(l)
            right.append(r)
        }
        return (left, right)
    }

    func testBlocksGiveTheFrameByFrameOutputBitForBit() {
        let (left, right) = signal(frames: 60_000)
        var reference = PeakLimiter(sampleRate: 48_000, ceilingDecibels: -3)
        defer { reference.deallocate() }
        var expectedL = left, expectedR = right
        for i in left.indices { reference.process(&expectedL[i], &expectedR[i]) }

        for block in [1, 7, 32, 64, 256, 1000] {
            var limiter = PeakLimiter(sampleRate: 48_000, ceilingDecibels: -3)
            defer { limiter.deallocate() }
            var outL = left, outR = right
            var wholeBlocks = 0
            var start = 0
            while start < left.count {
                let n = min(block, left.count - start)
                let passed = outL.withUnsafeMutableBufferPointer { l in
                    outR.withUnsafeMutableBufferPointer { r in
                        limiter.passCalmBlock(l.baseAddress! + start, r.baseAddress! + start, gain: 1,
                                              into: l.baseAddress! + start, r.baseAddress! + start, count: n)
                    }
                }
                if passed {
                    wholeBlocks += 1
                } else {
                    for i in start..<(start + n) { limiter.process(&outL[i], &outR[i]) }
                }
                start += n
            }
            XCTAssertEqual(outL.map(\.bitPattern), expectedL.map(\.bitPattern), "left, blocks of \(block)")
            XCTAssertEqual(outR.map(\.bitPattern), expectedR.map(\.bitPattern), "right, blocks of \(block)")
            XCTAssertGreaterThan(wholeBlocks, 0, "blocks of \(block): the block path was never taken")
        }
    }

    /// A refused block writes nothing: unlimited samples must never reach the output (another
    /// client may read the port buffers at any moment). An early version scaled the block into
    /// the ports before checking it.
    func testOversAndNaNAreRefusedWholeWritingNothing() {
        var limiter = PeakLimiter(sampleRate: 48_000, ceilingDecibels: -1)
        defer { limiter.deallocate() }
        var quietL = [Float](repeating: 0.1, count: 4096), quietR = quietL
        for i in quietL.indices { limiter.process(&quietL[i], &quietR[i]) }  // long enough to idle
        for (bad, gain) in [(Float(0.95), Float(1)), (.nan, 1), (-.infinity, 1), (0.5, 1.8)] {
            var l = [Float](repeating: 0.1, count: 64)
            let r = l
            l[37] = bad
            var outL = [Float](repeating: 7, count: 64), outR = outL
            XCTAssertFalse(limiter.passCalmBlock(l, r, gain: gain, into: &outL, &outR, count: 64), "\(bad) × \(gain) passed whole")
            XCTAssertEqual(outL + outR, [Float](repeating: 7, count: 128), "a refused block wrote to the output")
        }
        let l = [Float](repeating: 0.1, count: 64)
        var outL = [Float](repeating: 7, count: 64), outR = outL
        XCTAssertTrue(limiter.passCalmBlock(l, l, gain: 0.5, into: &outL, &outR, count: 64))
        XCTAssertEqual(outL, [Float](repeating: 0.1, count: 64), "the delay line's content (quiet input) comes out")
    }
}
