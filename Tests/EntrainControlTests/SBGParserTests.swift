import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The first layer of SBaGen import: the file as SBaGen reads it (entrainment-peers.md §2).
final class SBGParserTests: XCTestCase {
    let fixtures = EntrainBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sbg")

    func fixture(_ name: String, now: Double = 0) throws -> (SBGFile, [SessionProblem]) {
        let url = fixtures.appendingPathComponent(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw XCTSkip("fixtures not beside the project") }
        return try SBGParser.parse(text, file: name, now: now)
    }

    func testBrainAlphaIsPinkNoiseAndA300HzBinaural() throws {
        let (file, _) = try fixture("ts-brain-alpha.sbg")
        XCTAssertEqual(file.toneSets["ts"]?.slots, [.noise(color: "pink", amplitude: 40),
                                                    .binaural(carrier: 300, beat: 10, amplitude: 10, waveform: .sine)])
        XCTAssertEqual(file.timeline.map(\.time), [0])
        XCTAssertFalse(file.notes.isEmpty, "its ## comment is kept to show")
    }

    func testTapeThreeStartsWithAFiveSecondSlideFromSilence() throws {
        let (file, _) = try fixture("prog-tape-3.sbg")
        XCTAssertTrue(file.options.startAtFirst && file.options.endAtLast, "-SE")
        let first = try XCTUnwrap(file.timeline.first)
        XCTAssertEqual(first.time, 23 * 3600 + 59 * 60 + 55)
        XCTAssertEqual([first.fadeIn, first.fadeOut], ["=", "="])
        XCTAssertTrue(first.slide)
        XCTAssertEqual(file.toneSets["off"]?.slots.count, 1)
        XCTAssertNil(file.toneSets["off"]?.slots.first!, "'off: -' is one empty slot")
    }

    /// `+` times count from the last absolute time (NOW), not from the previous line.
    func testRelativeTimesCountFromTheLastAbsoluteTime() throws {
        let now = 10 * 3600.0
        let (file, _) = try fixture("pulse-1.sbg", now: now)
        XCTAssertEqual(file.timeline[0].time, now + 20 * 3600 + 33 * 60 + 1 - 86_400, "NOW+20:33:00+00:00:01, modulo 24 h")
        XCTAssertEqual(file.timeline[1].time, now + 2)
        XCTAssertEqual(file.timeline[2].time, now + 3)
    }

    func testBlocksExpandWithTheCallersTimeInFront() throws {
        let (file, _) = try fixture("prog-990102.sbg")
        let afterTwo = file.timeline.filter { $0.time >= 2 * 3600 && $0.time < 3 * 3600 }
        XCTAssertEqual(afterTwo.map(\.time), [0, 10, 20, 30, 40, 45].map { 2 * 3600 + $0 * 60 }, "02:00 down-then-up: +00:00 … +00:45")
        XCTAssertEqual(afterTwo.map(\.toneSet), ["theta6", "theta4", "theta4", "theta6", "alpha8", "none"])
        XCTAssertEqual(afterTwo.map(\.slide), [true, false, true, true, false, false])
        XCTAssertEqual(afterTwo.map(\.fadeIn), ["=", "=", "=", "=", "=", "-"], "fades come from the block's lines")
    }

    func testTokensOfTheClassicFormatAndTheForks() throws {
        let (file, warnings) = try SBGParser.parse("""
        -SE -F 10000 -o out.wav -m river.ogg
        a: 200+10/20 200-4/30 150/10 300@10/15 200M8/20 square:250+5/10 white/5 brown/6 bell+2050/20 mix/100 spin:300+0.2/40 -
        12:00 <> a
        """, file: "t.sbg")
        XCTAssertEqual(file.options.fadeSeconds, 10)
        XCTAssertEqual(warnings.filter { $0.message.contains("refused") }.count, 2, "-o and -m never read or write files")
        let slots = try XCTUnwrap(file.toneSets["a"]?.slots)
        XCTAssertEqual(slots[0], .binaural(carrier: 200, beat: 10, amplitude: 20, waveform: .sine))
        XCTAssertEqual(slots[1], .binaural(carrier: 200, beat: -4, amplitude: 30, waveform: .sine), "the sign picks the higher ear")
        XCTAssertEqual(slots[2], .binaural(carrier: 150, beat: 0, amplitude: 10, waveform: .sine))
        XCTAssertEqual(slots[3], .isochronic(carrier: 300, pulse: 10, amplitude: 15, waveform: .sine))
        XCTAssertEqual(slots[4], .monaural(carrier: 200, beat: 8, amplitude: 20))
        XCTAssertEqual(slots[5], .binaural(carrier: 250, beat: 5, amplitude: 10, waveform: .square))
        XCTAssertEqual(slots[6], .noise(color: "white", amplitude: 5))
        XCTAssertEqual(slots[7], .noise(color: "brown", amplitude: 6))
        for i in 8...10 { if case .unsupported = slots[i]! {} else { XCTFail("slot \(i) should be unsupported") } }
        XCTAssertNil(slots[11], "'-' keeps an empty slot")
        XCTAssertEqual(file.timeline.first.map { [$0.fadeIn, $0.fadeOut] }, ["<", ">"])
    }

    func testMistakesAreReportedWithTheirLine() {
        let cases: [(String, String)] = [
            ("a: 200+10/20\n+00:10 a", "2:1: error: '+00:10': a relative time needs an absolute time"),
            ("a: 200+10/20\n25:00 a", "2:1: error: '25:00' is not a time"),
            ("a: 200+10/20\n12:00 b", "2:1: error: 'b' is not a tone-set or block defined above"),
            ("a: 200+x/20", "1:1: error: '200+x/20' is not a tone"),
            ("a: 200+10/20\n12:00 a\n-SE", "3:1: error: option lines must come before"),
            ("b: {\n+00:10 a", "the file ends inside block 'b'"),
            ("-p drop 00ds+", "1:1: error: -p (built-in programs"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try SBGParser.parse(text, file: "t.sbg")) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)\nshould contain: \(expected)")
            }
        }
    }

    /// Every fixture parses, or fails naming the construct it does not support.
    func testEveryFixtureParsesOrNamesWhatIsUnsupported() throws {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".sbg") }) ?? []
        guard !files.isEmpty else { throw XCTSkip("fixtures not beside the project") }
        var parsed = 0
        for name in files.sorted() {
            do {
                _ = try fixture(name)
                parsed += 1
            } catch {
                XCTAssertTrue("\(error)".contains("not supported"), "\(name): \(error)")
            }
        }
        XCTAssertGreaterThanOrEqual(parsed, 24, "all but the -p programs and SBaGenX's library-only syntax")
    }
}
