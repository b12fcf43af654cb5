import BeatLab
import XCTest

final class LockMetricsTests: XCTestCase {
    let truth = (0..<40).map { 1 + Double($0) * 0.5 }  // 120 BPM from 1 s to 20.5 s

    func testPerfectTrackingLocksAtOnceWithoutGaps() {
        let m = LockMetrics.measure(reference: truth, estimated: truth.map { $0 + 0.01 })
        XCTAssertEqual(m.lockSeconds, 0)
        XCTAssertEqual(m.beatsBeforeLock, 0)
        XCTAssertEqual(m.longestGapSeconds, 0.5, accuracy: 1e-9)
        XCTAssertEqual(m.longestGapBeats, 1, accuracy: 1e-9)
    }

    /// Lock needs four right beats in a row; a silence in the middle is the longest gap.
    func testLateLockAndASilence() {
        var estimated = truth.filter { $0 >= 3 && ($0 < 8 || $0 > 12) }
        estimated.insert(2.2, at: 0)  // a wrong beat before the lock
        let m = LockMetrics.measure(reference: truth, estimated: estimated)
        XCTAssertEqual(try XCTUnwrap(m.lockSeconds), 2, accuracy: 1e-9)
        XCTAssertEqual(m.beatsBeforeLock, 4)  // the run starts on the fifth true beat, 3 s
        XCTAssertEqual(m.longestGapSeconds, 12.5 - 7.5, accuracy: 1e-9)
        XCTAssertEqual(m.longestGapBeats, 10, accuracy: 1e-9)
    }

    /// Beats at half tempo never lock (every other true beat is missed) and stopping early counts
    /// as a gap to the end of the music.
    func testHalfTempoNeverLocksAndStoppingEarlyIsAGap() {
        let half = stride(from: 0, to: truth.count, by: 2).map { truth[$0] }
        let halved = LockMetrics.measure(reference: truth, estimated: half)
        XCTAssertNil(halved.lockSeconds)
        XCTAssertNil(halved.beatsBeforeLock)
        let early = LockMetrics.measure(reference: truth, estimated: truth.filter { $0 < 10 })
        XCTAssertEqual(early.longestGapSeconds, 20.5 - 9.5, accuracy: 1e-9)
        XCTAssertEqual(LockMetrics.measure(reference: truth, estimated: []).longestGapSeconds, 19.5, accuracy: 1e-9)
    }
}
