import EntrainHRV
import Foundation
import TestSupport
import XCTest

/// Out-of-range intervals and missed or extra beats are rejected, counted, and leave the
/// metrics where the clean series puts them.
final class ArtifactTests: XCTestCase {
    func testRangeAndJumps() {
        var f = ArtifactFilter()
        for r in [1000.0, 1010, 990, 1005] { XCTAssertTrue(f.accept(r)) }
        XCTAssertFalse(f.accept(250), "below 300 ms")
        XCTAssertFalse(f.accept(2500), "above 2000 ms")
        XCTAssertFalse(f.accept(.nan))
        XCTAssertFalse(f.accept(2000), "a missed beat: double the median")
        XCTAssertFalse(f.accept(500), "an extra beat: half the median")
        XCTAssertTrue(f.accept(1250), "25 % from the median is a beat")
        XCTAssertFalse(f.accept(330), "the first part of a split beat")
        XCTAssertFalse(f.accept(690), "its second part: within 30 % alone, but the two make one interval")
        XCTAssertTrue(f.accept(1000))
        XCTAssertFalse(f.accept(250), "a short part below the range")
        XCTAssertTrue(f.accept(1000), "a whole beat after it is a beat")
        XCTAssertEqual(f.rejected, 8)
        XCTAssertEqual(f.accepted, 7)
    }

    func testALastingChangeOfRateIsAcceptedAfterAFewBeats() {
        var f = ArtifactFilter()
        for _ in 0..<9 { _ = f.accept(1000) }
        let after = (0..<9).map { _ in f.accept(600) }
        XCTAssertEqual(after.prefix(4), [false, false, false, false])
        XCTAssertTrue(after.suffix(4).allSatisfy { $0 }, "the median follows in-range beats: \(after)")
    }

    func testArtifactsDoNotMoveTheMetrics() throws {
        let clean = try ReferenceVectors.fixture("resonance-6-per-min")
        let dirty = try ReferenceVectors.fixture("resonance-with-artifacts")
        func last(_ rr: [Double]) -> (HRVUpdate, HRVPipeline) {
            var p = HRVPipeline(), t = 0.0, u: HRVUpdate?
            for r in rr { t += r / 1000; u = p.ingest([r], at: t) ?? u }
            return (u!, p)
        }
        let (a, _) = last(clean), (b, pipeline) = last(dirty)
        // Every 40 beats the fixture merges two intervals (one bad) and splits one (two bad).
        let merges = (0..<(clean.count - 1)).filter { $0 % 40 == 20 }.count, splits = (0..<clean.count).filter { $0 % 40 == 35 }.count
        XCTAssertEqual(pipeline.rejected, merges + 2 * splits)
        XCTAssertEqual(b.metrics.breath.rate!, a.metrics.breath.rate!, accuracy: 0.3)
        XCTAssertEqual(b.coherence, a.coherence, accuracy: 0.1)
        XCTAssertEqual(b.timeDomain.rmssd, a.timeDomain.rmssd, accuracy: a.timeDomain.rmssd * 0.25)
        XCTAssertEqual(b.heartRate, a.heartRate, accuracy: 3)
        XCTAssertLessThan(b.timeDomain.rmssd, 60, "no 1000 ms jumps in the successive differences")
    }

    func testBadFilesNameTheLine() {
        XCTAssertThrowsError(try RRSeriesFile.parse("1000\n\n  abc\n", file: "x.txt")) { error in
            XCTAssertEqual("\(error)", "x.txt:3:3: expected an RR interval in milliseconds, got 'abc'")
        }
        XCTAssertThrowsError(try RRSeriesFile.parse("{\"rr\": [1000, \"x\"]}\n", file: "r.jsonl")) { error in
            XCTAssertTrue("\(error)".hasPrefix("r.jsonl:1:1:"), "\(error)")
        }
        XCTAssertEqual(try RRSeriesFile.parse("# c\n{\"type\":\"session_start\"}\n{\"t\":1,\"rr\":[900,910.5]}\n950\n", file: "m"),
                       [900, 910.5, 950])
    }
}
