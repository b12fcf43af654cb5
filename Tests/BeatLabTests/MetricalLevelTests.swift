import BeatLab
import XCTest

/// Beat F at the annotated and the best metrical level, on sequences whose answer is known by hand.
final class MetricalLevelTests: XCTestCase {
    /// 120 BPM from 0 to 30 s: beats before 5 s are trimmed, as for F.
    let reference = (0..<60).map { Double($0) * 0.5 }

    func testAnnotatedLevel() {
        let score = BeatMetrics.levelScore(reference: reference, estimated: reference.map { $0 + 0.02 })
        XCTAssertEqual(score.annotated, 1)
        XCTAssertEqual(score.best, 1)
        XCTAssertEqual(score.bestLevel, .annotated)
    }

    func testHalfTempoOnEitherParityIsRightAtALevel() {
        for start in [0, 1] {
            let half = stride(from: start, to: reference.count, by: 2).map { reference[$0] }
            let score = BeatMetrics.levelScore(reference: reference, estimated: half)
            XCTAssertEqual(score.annotated, 2.0 / 3.0, accuracy: 0.02, "start \(start): half the beats found, all right")
            XCTAssertEqual(score.best, 1, accuracy: 1e-9, "start \(start)")
            XCTAssertEqual(score.bestLevel, .half)
        }
    }

    func testDoubleTempoIsRightAtALevel() {
        let double = (0..<120).map { Double($0) * 0.25 }
        let score = BeatMetrics.levelScore(reference: reference, estimated: double)
        XCTAssertEqual(score.best, 1, accuracy: 0.01, "one estimate past the last annotation")
        XCTAssertEqual(score.bestLevel, .double)
    }

    /// The off-beat is no metrical level for F (AMLt allows it): 250 ms off scores 0 at every level.
    func testOffBeatIsWrongAtEveryLevel() {
        let score = BeatMetrics.levelScore(reference: reference, estimated: reference.map { $0 + 0.25 })
        XCTAssertEqual(score.annotated, 0)
        XCTAssertEqual(score.best, 2 * (1.0 / 2) * 1 / (1.0 / 2 + 1), accuracy: 0.02, "the double level holds the off-beats: precision 1, recall 1/2")
    }
}
