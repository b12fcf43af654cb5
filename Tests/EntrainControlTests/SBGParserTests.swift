import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The first layer of SBaGen import: the file as SBaGen reads it. Our own files in
/// Tests/Fixtures/sbg cover every construct; peers' originals, when beside the checkout, too.
final class SBGParserTests: XCTestCase {
    let ours = Fixtures.ours("sbg")

    func parse(_ url: URL, now: Double) throws -> (SBGFile, [SessionProblem]) {
        try SBGParser.parse(String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent, now: now)
    }

    func own(_ name: String, now: Double = 0) throws -> (SBGFile, [SessionProblem]) {
        try parse(ours.appendingPathComponent(name), now: now)
    }

    func testABedIsPinkNoiseAndA250HzBinaural() throws {
        let (file, _) = try own("pink-alpha-bed.sbg")
        XCTAssertEqual(file.toneSets["bed"]?.slots, [.noise(color: "pink", amplitude: 30),
                                                     .binaural(carrier: 250, beat: 8, amplitude: 15, waveform: .sine)])
        XCTAssertEqual(file.timeline.map(\.time), [0])
        XCTAssertEqual(file.notes, ["A pink-noise bed under a 250 Hz carrier beating at 8 Hz, all day long."], "only ## comments are kept")
    }

    /// `23:59:50 == off ->` before midnight: a slide from the empty set, then `==` glides.
    func testASlideFromSilenceBeforeMidnight() throws {
        let (file, _) = try own("glide-from-silence.sbg")
        XCTAssertTrue(file.options.startAtFirst && file.options.endAtLast, "-SE")
        XCTAssertEqual(file.timeline.map(\.time), [86_390, 0, 600, 1200, 1680])
        XCTAssertEqual(file.timeline.map(\.slide), [true, true, true, true, false])
        XCTAssertEqual(file.timeline.map { String([$0.fadeIn, $0.fadeOut]) }, ["==", "==", "==", "==", "--"])
        XCTAssertEqual(file.toneSets["off"]?.slots.count, 1)
        XCTAssertNil(file.toneSets["off"]?.slots.first!, "'off: -' is one empty slot")
        XCTAssertEqual(file.toneSets["a8"]?.slots, [.binaural(carrier: 290, beat: 8, amplitude: 40, waveform: .sine)])
    }

    /// Every `+` time counts from NOW (the last absolute time), not from the line above.
    func testRelativeTimesCountFromNow() throws {
        let now = 10 * 3600.0
        let (file, _) = try own("now-pulses.sbg", now: now)
        XCTAssertEqual(file.options.fadeSeconds, 1, "-F 1000 is in milliseconds")
        XCTAssertEqual(file.timeline.map(\.time), [now + 12 * 3600, now + 5, now + 8, now + 10, now + 13])
        XCTAssertEqual(file.now, now)
    }

    /// Nested blocks: each inner line is read again with the caller's time written in front.
    func testNestedBlocksExpandWithTheCallersTimeInFront() throws {
        let (file, _) = try own("evening-blocks.sbg")
        XCTAssertEqual(file.timeline.map(\.time), [75_600, 76_500, 77_400, 79_200, 79_800], "21:00, 21:15, 21:30, 22:00, 22:10")
        XCTAssertEqual(file.timeline.map(\.toneSet), ["theta7", "theta5", "alpha9", "alpha9", "none"])
        XCTAssertEqual(file.timeline.map(\.slide), [true, false, false, false, false])
        XCTAssertEqual(file.timeline.map { String([$0.fadeIn, $0.fadeOut]) }, ["==", "==", "--", "--", "<>"], "fades come from the block's lines")
        XCTAssertEqual(file.toneSets["theta5"]?.slots.first!, .noise(color: "brown", amplitude: 20))
    }

    /// Options over two lines, a refused output file, the forks' voices and the ones left out.
    func testOptionsAndEveryVoiceKind() throws {
        let (file, warnings) = try own("voices-and-options.sbg")
        XCTAssertEqual(file.options.fadeSeconds, 20)
        XCTAssertTrue(file.options.startAtFirst && file.options.endAtLast)
        XCTAssertTrue(warnings.contains { $0.line == 4 && $0.message.contains("-o ignored") && $0.message.contains("refused") }, "\(warnings)")
        XCTAssertEqual(file.waves[1], [0, 2, 5, 2, 0], "wave01's table is kept for the voice that uses it")
        let slots = try XCTUnwrap(file.toneSets["mixed"]?.slots)
        XCTAssertEqual(Array(slots.prefix(4)), [.noise(color: "white", amplitude: 10),
                                               .binaural(carrier: 220, beat: 6, amplitude: 15, waveform: .square),
                                               .isochronic(carrier: 300, pulse: 10, amplitude: 20, waveform: .sine),
                                               .monaural(carrier: 180, beat: 4, amplitude: 15)])
        XCTAssertEqual(slots[4], .bell(frequency: 800, amplitude: 10))
        XCTAssertEqual(slots[5], .wave(number: 1, carrier: 200, beat: 4, amplitude: 10))
        XCTAssertNil(file.toneSets["calm"]?.slots.last!, "'-' keeps an empty slot")
    }

    func testCRLFLinesReadAsLines() throws {
        let (file, _) = try own("two-voices-crlf.sbg")
        XCTAssertEqual(file.toneSets["fifth"]?.slots, [.binaural(carrier: 264, beat: 7.5, amplitude: 20, waveform: .sine),
                                                       .binaural(carrier: 396, beat: 7.5, amplitude: 15, waveform: .sine)])
        XCTAssertEqual(file.timeline.map(\.time), [0, 120])
    }

    /// Every file of ours parses, or (the built-in program) fails naming what is not supported.
    func testEveryOwnFileParsesOrNamesWhatIsUnsupported() throws {
        let results = Fixtures.files(in: ours, suffix: "sbg").map { url in Result { try own(url.lastPathComponent) } }
        XCTAssertEqual(results.count, 7)
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 6)
        for case .failure(let error) in results { XCTAssertTrue("\(error)".contains("not supported"), "\(error)") }
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
        XCTAssertEqual(slots[8], .bell(frequency: 2050, amplitude: 20))
        XCTAssertEqual(slots[9], .mix(amplitude: 100))
        XCTAssertEqual(slots[10], .spin(color: "pink", width: 300, rate: 0.2, amplitude: 40))
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

    // MARK: peers' originals (skipped when ../shared/fixtures is not beside the checkout)

    func peers() throws -> URL {
        guard let folder = Fixtures.peers("sbg") else { throw XCTSkip(Fixtures.peersAbsent("sbg")) }
        return folder
    }

    func fixture(_ name: String, now: Double = 0) throws -> (SBGFile, [SessionProblem]) {
        try parse(peers().appendingPathComponent(name), now: now)
    }

    func testPeerBrainAlphaIsPinkNoiseAndA300HzBinaural() throws {
        let (file, _) = try fixture("ts-brain-alpha.sbg")
        XCTAssertEqual(file.toneSets["ts"]?.slots, [.noise(color: "pink", amplitude: 40),
                                                    .binaural(carrier: 300, beat: 10, amplitude: 10, waveform: .sine)])
        XCTAssertEqual(file.timeline.map(\.time), [0])
        XCTAssertFalse(file.notes.isEmpty, "its ## comment is kept to show")
    }

    func testPeerTapeThreeStartsWithAFiveSecondSlideFromSilence() throws {
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
    func testPeerRelativeTimesCountFromTheLastAbsoluteTime() throws {
        let now = 10 * 3600.0
        let (file, _) = try fixture("pulse-1.sbg", now: now)
        XCTAssertEqual(file.timeline[0].time, now + 20 * 3600 + 33 * 60 + 1 - 86_400, "NOW+20:33:00+00:00:01, modulo 24 h")
        XCTAssertEqual(file.timeline[1].time, now + 2)
        XCTAssertEqual(file.timeline[2].time, now + 3)
    }

    func testPeerBlocksExpandWithTheCallersTimeInFront() throws {
        let (file, _) = try fixture("prog-990102.sbg")
        let afterTwo = file.timeline.filter { $0.time >= 2 * 3600 && $0.time < 3 * 3600 }
        XCTAssertEqual(afterTwo.map(\.time), [0, 10, 20, 30, 40, 45].map { 2 * 3600 + $0 * 60 }, "02:00 down-then-up: +00:00 … +00:45")
        XCTAssertEqual(afterTwo.map(\.toneSet), ["theta6", "theta4", "theta4", "theta6", "alpha8", "none"])
        XCTAssertEqual(afterTwo.map(\.slide), [true, false, true, true, false, false])
        XCTAssertEqual(afterTwo.map(\.fadeIn), ["=", "=", "=", "=", "=", "-"], "fades come from the block's lines")
    }

    /// Every peer file parses, or fails naming the construct it does not support.
    func testEveryPeerFileParsesOrNamesWhatIsUnsupported() throws {
        let files = Fixtures.files(in: try peers(), suffix: "sbg").map(\.lastPathComponent)
        var parsed = 0
        for name in files {
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
