import TestSupport
import XCTest

/// How the receivers' tests read a frame rate: a hold-up on a loaded machine (frames late, then
/// at once) must not move it; a sender that drops frames must.
final class FrameRateTests: XCTestCase {
    /// 80 frames at 40 a second, a few microseconds of jitter.
    func steady(count: Int = 80, every: Double = 0.025) -> [Double] {
        (0..<count).map { Double($0) * every + Double(($0 * 7919) % 13) * 1e-6 }
    }

    func testASteadySenderReadsItsRate() {
        XCTAssertEqual(framesPerSecond(arrivals: steady()), 40, accuracy: 0.01)
        XCTAssertEqual(framesPerSecond(arrivals: steady(every: 0.05)), 20, accuracy: 0.01)
    }

    /// Frames 30…33 held up until frame 34 is due (102 ms), then sent at once: 40 frames a second
    /// still, where the least-squares line read 43.8 and the first-to-last span, for a hold-up at
    /// the start, 41.5.
    func testAHoldUpAndTheFramesSentAtOnceLeaveTheRate() {
        for start in [0, 30, 75] {
            var arrivals = steady()
            let release = arrivals[min(start + 4, arrivals.count - 1)] + 0.002
            for i in start..<min(start + 4, arrivals.count) { arrivals[i] = release + Double(i - start) * 1e-5 }
            XCTAssertEqual(framesPerSecond(arrivals: arrivals), 40, accuracy: 0.3, "a hold-up at frame \(start)")
        }
    }

    /// A sender that leaves out every tenth frame sends 36 a second, and reads so.
    func testASenderThatDropsFramesReadsSlower() {
        let arrivals = steady(count: 100).enumerated().filter { $0.offset % 10 != 9 }.map(\.element)
        XCTAssertEqual(framesPerSecond(arrivals: arrivals), 36, accuracy: 0.3)
    }

    func testTooFewFramesReadZero() {
        XCTAssertEqual(framesPerSecond(arrivals: []), 0)
        XCTAssertEqual(framesPerSecond(arrivals: [1.0]), 0)
    }
}
