import BeatLab
import XCTest

/// CMLt/AMLt on sequences whose answer is known by hand.
final class ContinuityTests: XCTestCase {
    /// 120 BPM from 5 s to 30 s: 50 beats, 0.5 s apart.
    let reference = (0..<50).map { 5 + Double($0) * 0.5 }

    func score(_ estimated: [Double]) -> Continuity {
        BeatMetrics.continuity(reference: reference, estimated: estimated)
    }

    func testPerfectTracking() {
        XCTAssertEqual(score(reference), Continuity(cmlc: 1, cmlt: 1, amlc: 1, amlt: 1))
    }

    func testOffBeatScoresOnlyAllowingMetricalLevels() {
        let c = score(reference.map { $0 + 0.25 })
        XCTAssertEqual(c.cmlt, 0)
        XCTAssertEqual(c.amlt, 1)
        XCTAssertEqual(c.amlc, 1)
        // F at ±70 ms agrees: every estimate is 250 ms off.
        XCTAssertEqual(BeatMetrics.fMeasure(reference: reference, estimated: reference.map { $0 + 0.25 }, window: 0.07).f, 0)
    }

    func testDoubleAndHalfTempo() {
        let double = (0..<100).map { 5 + Double($0) * 0.25 }
        XCTAssertEqual(score(double).cmlt, 0)
        XCTAssertEqual(score(double).amlt, 1)
        // Half tempo on the odd beats (1, 3, …) and on the even beats.
        for start in [0, 1] {
            let half = stride(from: start, to: reference.count, by: 2).map { reference[$0] }
            XCTAssertEqual(score(half).cmlt, 0, "start \(start)")
            XCTAssertEqual(score(half).amlt, 1, "start \(start)")
        }
    }

    /// Tolerance is 17.5 % of the 500 ms interval: 87.5 ms.
    func testPhaseTolerance() {
        XCTAssertEqual(score(reference.map { $0 + 0.085 }).cmlt, 1)
        XCTAssertEqual(score(reference.map { $0 - 0.085 }).cmlt, 1)
        XCTAssertEqual(score(reference.map { $0 + 0.09 }).cmlt, 0)
    }

    /// A dropped beat breaks it and the next (whose estimated interval is doubled).
    func testADroppedBeatBreaksContinuity() {
        var estimated = reference
        estimated.remove(at: 20)
        let c = score(estimated)
        XCTAssertEqual(c.cmlt, 48.0 / 50)
        XCTAssertEqual(c.cmlc, 28.0 / 50)  // beats 22...49
    }

    /// A steady estimate at the wrong tempo (150 against 120 BPM) lines up now and then, but its
    /// interval fails the period test at every beat and at every metrical level.
    func testWrongTempoFails() {
        let fast = (0..<63).map { 5 + Double($0) * 0.4 }  // 150 BPM against 120
        XCTAssertLessThan(score(fast).cmlt, 0.1)
        XCTAssertLessThan(score(fast).amlt, 0.1)
    }

    func testEdgeCases() {
        XCTAssertEqual(BeatMetrics.continuity(reference: [], estimated: []), Continuity(cmlc: 1, cmlt: 1, amlc: 1, amlt: 1))
        XCTAssertEqual(BeatMetrics.continuity(reference: reference, estimated: [6]).amlt, 0)
        XCTAssertEqual(BeatMetrics.continuity(reference: [], estimated: reference).cmlt, 0)
    }

    /// The local interval follows a changing tempo.
    func testChangingTempoReference() {
        var beats = [5.0]
        for k in 0..<40 { beats.append(beats.last! + 0.6 - Double(k) * 0.004) }
        XCTAssertEqual(BeatMetrics.continuity(reference: beats, estimated: beats.map { $0 + 0.05 }).cmlt, 1)
        let steady = (0..<45).map { 5 + Double($0) * 0.6 }
        XCTAssertLessThan(BeatMetrics.continuity(reference: beats, estimated: steady).cmlt, 0.5)
    }
}
