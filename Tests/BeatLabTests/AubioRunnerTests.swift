import BeatLab
import EntrainEngine
import Foundation
import XCTest

/// aubio's tools on a corpus click track. Skipped where aubio-tools is not installed
/// (scripts/install-deps.sh aubio-tools installs it).
final class AubioRunnerTests: XCTestCase {
    var directory: URL!
    var item: CorpusItem!

    override func setUpWithError() throws {
        try XCTSkipUnless(AubioRunner.isAvailable, "aubio-tools not installed")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("aubio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        item = try XCTUnwrap(BeatCorpus.item(named: "click-100"))
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func testOnsetsOfAClickTrack() throws {
        let run = try AubioRunner.onsets(file: try item.write(to: directory))
        let score = BeatMetrics.evaluateOnsets(reference: item.onsets, estimated: run.times)
        XCTAssertEqual(score.f, 1, "aubio finds every click within ±50 ms")
        // aubio reports onsets a few ms early on sharp clicks (its fixed delay compensation).
        XCTAssertEqual(try XCTUnwrap(score.meanErrorMs), -7, accuracy: 5)
        XCTAssertGreaterThan(run.cpuSeconds, 0)
        XCTAssertGreaterThan(run.wallSeconds, 0)
        XCTAssertEqual(run.command.prefix(3), ["aubioonset", "-i", directory.appendingPathComponent("click-100.wav").path])
    }

    func testBeatsOfAClickTrack() throws {
        let run = try AubioRunner.beats(file: try item.write(to: directory))
        let score = BeatMetrics.evaluateBeats(reference: item.beats, estimated: run.times)
        XCTAssertGreaterThan(score.events.f, 0.9)
        XCTAssertGreaterThan(score.continuity.amlt, 0.9)
        XCTAssertGreaterThan(run.cpuSeconds, 0)
    }

    /// aubio reads our float WAV and 16-bit PCM alike.
    func testSixteenBitFilesGiveTheSameOnsets() throws {
        let float = try AubioRunner.onsets(file: try item.write(to: directory, format: .float32)).times
        let pcm = try AubioRunner.onsets(file: try item.write(to: directory, format: .pcm16)).times
        XCTAssertEqual(float.count, pcm.count)
        for (a, b) in zip(float, pcm) { XCTAssertEqual(a, b, accuracy: 0.001) }
    }

    func testOptionsReachTheTool() throws {
        let file = try item.write(to: directory)
        let run = try AubioRunner.onsets(file: file, method: "specflux", bufferSize: 1024, hopSize: 128, extraArguments: ["-t", "0.4"])
        XCTAssertEqual(Array(run.command.dropFirst(3)), ["-O", "specflux", "-B", "1024", "-H", "128", "-T", "seconds", "-t", "0.4"])
        XCTAssertGreaterThan(BeatMetrics.evaluateOnsets(reference: item.onsets, estimated: run.times).f, 0.9)
    }

    func testFailuresAreReported() throws {
        let file = try item.write(to: directory)
        XCTAssertThrowsError(try AubioRunner.onsets(file: file, method: "bogus")) { error in
            XCTAssertTrue(String(describing: error).contains("unknown spectral descriptor"), "\(error)")
        }
        XCTAssertThrowsError(try AubioRunner.beats(file: directory.appendingPathComponent("missing.wav"))) { error in
            XCTAssertTrue(String(describing: error).contains("cannot read"), "\(error)")
        }
        // A file aubio cannot decode.
        let junk = directory.appendingPathComponent("junk.wav")
        try Data("not audio".utf8).write(to: junk)
        XCTAssertThrowsError(try AubioRunner.onsets(file: junk))
    }
}
