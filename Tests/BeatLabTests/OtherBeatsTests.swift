import BeatLab
import Foundation
import TestSupport
import XCTest

/// Another tracker's beats read from a file (`entrain beat-eval --other-beats`) and scored as
/// aubio's are, on a hand-made file whose scores are known.
final class OtherBeatsTests: XCTestCase {
    /// 120 BPM from 0 to 30 s; the first 5 s are not scored.
    let truth = (0..<60).map { Double($0) * 0.5 }
    var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder("other-beats") }
    override func tearDown() { folder.remove() }

    var item: CorpusItem {
        CorpusItem(name: "piece", category: .recording, sampleRate: 8000, samples: [], onsets: [], beats: truth, summary: "")
    }

    /// Every other beat, 20 ms late: right at half tempo, half the beats at the annotated level.
    func testHalfTempoFileScoresAtItsLevel() throws {
        let beats = stride(from: 0, to: truth.count, by: 2).map { String(format: "%.3f", truth[$0] + 0.02) }
        try folder.write(beats.joined(separator: "\n") + "\n\n", "piece.beats.txt")
        let row = try BeatComparison.other(item, beatsIn: folder.url)
        XCTAssertEqual(row.item, "piece")
        XCTAssertEqual(row.beats.events.estimatedCount, 25, "5.02 … 29.02 s scored")
        XCTAssertEqual(row.levels.annotated, 2.0 / 3.0, accuracy: 1e-9, "precision 1, recall 1/2")
        XCTAssertEqual(row.levels.best, 1, accuracy: 1e-9)
        XCTAssertEqual(row.levels.bestLevel, .half)
        XCTAssertEqual(row.beats.continuity.cmlt, 0, "every period is twice the annotated one")
        XCTAssertEqual(row.beats.continuity.amlt, 1, accuracy: 1e-9, "the half-tempo variant, all tracked")
        XCTAssertEqual(try XCTUnwrap(row.beats.events.meanErrorMs), 20, accuracy: 1e-6)
        XCTAssertNil(row.lock.lockSeconds, "never four annotated beats in a row")
        XCTAssertEqual(row.lock.longestGapSeconds, 1, accuracy: 1e-9)
        XCTAssertEqual(row.cpuSeconds, 0, "it ran elsewhere")
    }

    /// The truth's own times score 1 everywhere and lock on the first beat; the table names the tracker.
    func testTheTruthItselfScoresOneInTheTable() throws {
        try folder.write(truth.map { "\($0)\t1" }.joined(separator: "\n"), "piece.beats.txt")  // a second column is ignored
        let row = try BeatComparison.other(item, beatsIn: folder.url)
        XCTAssertEqual(row.levels.annotated, 1)
        XCTAssertEqual(row.beats.continuity.cmlt, 1)
        XCTAssertEqual(row.lock.lockSeconds, 0)
        let table = BeatComparison.recordingTable(ours: [row], other: [row], name: "madmom-online")
        XCTAssertTrue(table.hasPrefix("| piece | F ours / madmom-online | best-level F ours / madmom-online |"), table)
        XCTAssertTrue(table.contains("| piece | 1.000 / 1.000 | 1.000 / 1.000 | 1.000 / 1.000 | 1.000 / 1.000 | 0.0 / 0.0 |"), table)
    }

    func testABadLineNamesItsFileAndLine() throws {
        try folder.write("5.0\nbeat\n", "piece.beats.txt")
        XCTAssertThrowsError(try BeatComparison.other(item, beatsIn: folder.url)) { error in
            XCTAssertEqual("\(error)", "piece.beats.txt:2: not a time in seconds: 'beat'")
        }
    }
}
