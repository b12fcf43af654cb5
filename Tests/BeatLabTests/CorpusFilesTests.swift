import BeatLab
import EntrainEngine
import Foundation
import XCTest

final class CorpusFilesTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// The files hold exactly the item: float WAV samples bit for bit, times to the microsecond.
    func testWrittenFilesRoundTrip() throws {
        let urls = try BeatCorpus.write(to: directory, names: ["click-160", "silence"])
        XCTAssertEqual(urls.map(\.lastPathComponent), ["click-160.wav", "silence.wav"])
        let item = try XCTUnwrap(BeatCorpus.item(named: "click-160"))
        let wav = try WAVFile(contentsOf: urls[0])
        XCTAssertEqual(wav.sampleRate, 48_000)
        XCTAssertEqual(wav.channels, 1)
        XCTAssertEqual(wav.formatTag, 3)
        XCTAssertEqual(wav.samples[0], item.samples)
        for (kind, truth) in [("onsets", item.onsets), ("beats", item.beats)] {
            let text = try String(contentsOf: directory.appendingPathComponent("click-160.\(kind).txt"), encoding: .utf8)
            let lines = text.split(separator: "\n")
            XCTAssertEqual(lines.count, truth.count)
            XCTAssertEqual(lines.first.map(String.init), String(format: "%.6f", truth[0]))
            for (line, t) in zip(lines, truth) { XCTAssertEqual(Double(line)!, t, accuracy: 5e-7) }
        }
        // No-beat items get empty truth files, not missing ones.
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent("silence.beats.txt"), encoding: .utf8), "")
    }

    func testUnknownNameIsAnError() {
        XCTAssertThrowsError(try BeatCorpus.write(to: directory, names: ["nope"])) { error in
            XCTAssertTrue(String(describing: error).contains("no corpus item named 'nope'"))
        }
    }
}
