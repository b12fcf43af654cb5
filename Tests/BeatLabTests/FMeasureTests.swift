import BeatLab
import XCTest

/// Hand-worked cases that a wrong matcher, window or convention fails.
final class FMeasureTests: XCTestCase {
    func testWindowEdgeIsInclusive() {
        XCTAssertEqual(BeatMetrics.fMeasure(reference: [10], estimated: [10.069], window: 0.07).f, 1)
        XCTAssertEqual(BeatMetrics.fMeasure(reference: [10], estimated: [9.931], window: 0.07).f, 1)
        XCTAssertEqual(BeatMetrics.fMeasure(reference: [10], estimated: [10.071], window: 0.07).f, 0)
        XCTAssertEqual(BeatMetrics.fMeasure(reference: [10], estimated: [9.929], window: 0.07).f, 0)
        // 5.07 − 5.00 is a hair above 0.07 in binary; written as exactly the window it must count.
        XCTAssertEqual(BeatMetrics.fMeasure(reference: [5.00], estimated: [5.07], window: 0.07).f, 1)
    }

    /// Two estimates near one reference: only one may match.
    func testDuplicatesMatchOnce() {
        let m = BeatMetrics.fMeasure(reference: [1, 2, 3], estimated: [1, 1.01, 2, 3], window: 0.05)
        XCTAssertEqual(m.matched.count, 3)
        XCTAssertEqual(m.precision, 0.75)
        XCTAssertEqual(m.recall, 1)
        XCTAssertEqual(m.f, 2 * 0.75 / 1.75, accuracy: 1e-12)
        let twice = BeatMetrics.fMeasure(reference: [1, 1], estimated: [1], window: 0.05)
        XCTAssertEqual(twice.recall, 0.5)
    }

    /// Pairing closest pairs first gives 1 match here; the maximum is 2.
    func testMatchingMaximisesTheCount() {
        let m = BeatMetrics.fMeasure(reference: [1.00, 1.06], estimated: [1.04, 1.10], window: 0.05)
        XCTAssertEqual(m.matched.count, 2)
        XCTAssertEqual(m.matched.map(\.ref), [1.00, 1.06])
        XCTAssertEqual(m.matched.map(\.est), [1.04, 1.10])
        XCTAssertEqual(m.f, 1)
    }

    func testEmptyListsConvention() {
        let none = BeatMetrics.fMeasure(reference: [], estimated: [], window: 0.07)
        XCTAssertEqual([none.f, none.precision, none.recall], [1, 1, 1])
        XCTAssertEqual(BeatMetrics.fMeasure(reference: [1], estimated: [], window: 0.07).f, 0)
        XCTAssertEqual(BeatMetrics.fMeasure(reference: [], estimated: [1], window: 0.07).f, 0)
    }

    func testUnsortedAndNonFiniteInput() {
        let m = BeatMetrics.fMeasure(reference: [3, 1, 2], estimated: [2.01, .nan, 3.02, 0.99, .infinity], window: 0.05)
        XCTAssertEqual(m.f, 1)
    }

    func testTimingErrorsMeanMedianAndSize() throws {
        let e = try XCTUnwrap(BeatMetrics.timingErrors([(1, 1.01), (2, 1.98), (3, 3.03)]))
        XCTAssertEqual(e.meanMs, 20.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(e.medianMs, 10, accuracy: 1e-9)
        XCTAssertEqual(e.meanAbsoluteMs, 20, accuracy: 1e-9)  // 10, 20 and 30 ms off
        let even = try XCTUnwrap(BeatMetrics.timingErrors([(1, 1.01), (2, 1.98), (3, 3.03), (4, 4.0)]))
        XCTAssertEqual(even.medianMs, 5, accuracy: 1e-9)  // mean of the middle two, 0 and 10
        XCTAssertNil(BeatMetrics.timingErrors([]))
    }

    /// Reference beats before 5 s are dropped (mir_eval trim_beats), and so are the estimates
    /// nearest them: the first 5 s are not scored, whichever side of 5.000 s a beat falls.
    func testBeatTrimming() {
        XCTAssertEqual(BeatMetrics.trimBeats([6, 4.999, 5, 1]), [5, 6])
        // Estimates wrong during the first 5 s do not count against the tracker.
        let reference = stride(from: 0.5, to: 20, by: 0.5).map { $0 }
        let estimated = stride(from: 0.3, to: 5, by: 0.7).map { $0 } + reference.filter { $0 >= 5 }
        XCTAssertEqual(BeatMetrics.evaluateBeats(reference: reference, estimated: estimated).events.f, 1)
        // A reference at 4.98 is not scored, nor its 5.02 estimate (mir_eval counted that one false).
        let s = BeatMetrics.evaluateBeats(reference: [4.98, 5.5, 6.0], estimated: [5.02, 5.5, 6.0]).events
        XCTAssertEqual(s.referenceCount, 2)
        XCTAssertEqual(s.precision, 1)
        XCTAssertEqual(s.recall, 1)
        // A reference at 5.000 is scored, with its estimate 2 ms early (mir_eval dropped the
        // estimate and counted the reference missed); an estimate far from any reference counts
        // by its own time.
        let early = BeatMetrics.evaluateBeats(reference: [4.5, 5.0, 5.5, 6.0], estimated: [4.998, 5.5, 6.0, 4.7, 5.2]).events
        XCTAssertEqual(early.matchedCount, 3)
        XCTAssertEqual(early.estimatedCount, 4)
        XCTAssertEqual(BeatMetrics.trimEstimates([4.998, 5.5, 4.7, 5.2, 4.55], reference: [4.5, 5.0, 5.5]), [4.998, 5.2, 5.5])
    }

    /// Onsets: ±50 ms, no trimming; beats: ±70 ms after trimming.
    func testOnsetAndBeatDefaults() throws {
        let reference = [1.0, 6.0, 7.0], estimated = [1.0, 6.06, 7.0]
        let onsets = BeatMetrics.evaluateOnsets(reference: reference, estimated: estimated)
        XCTAssertEqual(onsets.window, 0.05)
        XCTAssertEqual(onsets.matchedCount, 2)
        XCTAssertEqual(onsets.referenceCount, 3)
        let beats = BeatMetrics.evaluateBeats(reference: reference, estimated: estimated).events
        XCTAssertEqual(beats.window, 0.07)
        XCTAssertEqual(beats.matchedCount, 2)
        XCTAssertEqual(beats.f, 1)
        XCTAssertEqual(try XCTUnwrap(beats.meanErrorMs), 30, accuracy: 1e-6)
    }

    /// The mean offset is of the errors' sizes: one beat 20 ms early and one 40 ms late are 30 ms
    /// off on average, though their signed mean is 10 ms.
    func testMeanAbsoluteError() throws {
        let beats = BeatMetrics.evaluateBeats(reference: [6.0, 7.0], estimated: [5.98, 7.04]).events
        XCTAssertEqual(try XCTUnwrap(beats.meanErrorMs), 10, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(beats.meanAbsoluteErrorMs), 30, accuracy: 1e-6)
        XCTAssertNil(BeatMetrics.evaluateBeats(reference: [6.0], estimated: [8.0]).events.meanAbsoluteErrorMs)
    }
}
