import BeatLab
import Foundation
import TestSupport
import XCTest

/// Reading a folder of recordings (`entrain beat-eval --corpus`): pieces are a WAV beside its
/// beat file, a bad beat line is a clear error. The real corpus itself, when it was built, is
/// checked for what its script promises.
final class RecordingCorpusTests: XCTestCase {
    func testAPieceIsAWAVBesideItsBeats() throws {
        let folder = try TemporaryFolder("recording-corpus")
        defer { folder.remove() }
        let item = CorpusItem(name: "clicks", category: .steady, sampleRate: 8000, samples: [Float](repeating: 0, count: 8000),
                              onsets: [], beats: [0.25, 0.75], summary: "")
        try item.write(to: folder.url)
        try Data().write(to: folder.url.appendingPathComponent("lonely.wav"))  // no beats: not a piece
        XCTAssertEqual(try RecordingCorpus.names(in: folder.url), ["clicks"])
        let read = try RecordingCorpus.item(named: "clicks", in: folder.url)
        XCTAssertEqual(read.beats, [0.25, 0.75])
        XCTAssertEqual(read.category, .recording)
        XCTAssertEqual(read.samples.count, 8000)
    }

    func testABadBeatLineNamesItsFileAndLine() throws {
        let folder = try TemporaryFolder("recording-corpus")
        defer { folder.remove() }
        let item = CorpusItem(name: "bad", category: .steady, sampleRate: 8000, samples: [0, 0], onsets: [], beats: [], summary: "")
        try item.write(to: folder.url)
        try "0.5\nlater\n".write(to: folder.url.appendingPathComponent("bad.beats.txt"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try RecordingCorpus.item(named: "bad", in: folder.url)) { error in
            XCTAssertEqual("\(error)", "bad.beats.txt:2: not a time in seconds: 'later'")
        }
    }

    /// The built corpus (scripts/build-real-corpus.sh): every piece has beats at its stated
    /// tempo, inside the audio.
    func testTheBuiltCorpusHoldsTogether() throws {
        let directory = RecordingCorpus.defaultDirectory(root: EntrainBinary.packageRoot)
        let names = (try? RecordingCorpus.names(in: directory)) ?? []
        try XCTSkipIf(names.isEmpty, "no real-recordings corpus in \(directory.path) (scripts/build-real-corpus.sh builds it)")
        for name in names {
            let item = try RecordingCorpus.item(named: name, in: directory)
            XCTAssertGreaterThan(item.beats.count, 16, name)
            XCTAssertLessThanOrEqual(item.beats.last ?? 0, item.duration, name)
            let intervals = zip(item.beats, item.beats.dropFirst()).map { $1 - $0 }
            XCTAssertTrue(intervals.allSatisfy { $0 > 60 / 260 && $0 < 60 / 40 }, "\(name): beats 40–260 BPM")
        }
    }
}
