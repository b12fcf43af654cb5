import EntrainControl
import Foundation
import TestSupport
import XCTest

/// SBaGen files played as SBaGen 1.4.5 plays them. The expected values are worked out by hand from
/// SBaGen's rules (a 24-hour ring of periods, a -F window around each change, per-slot glides or
/// fades through silence at the window's midpoint) for our own files in Tests/Fixtures/sbg.
final class SBGTimelineTests: XCTestCase {
    func program(_ text: String, now: Double = 0) throws -> (SessionProgram, [SessionProblem]) {
        var (file, warnings) = try SBGParser.parse(text, file: "t.sbg", now: now)
        let session = try SBGTimeline.session(file, name: "t", warnings: &warnings, path: "t.sbg")
        return (SessionProgram(session, sampleRate: 1000), warnings)
    }

    func own(_ name: String, now: Double = 0) throws -> (SessionProgram, [SessionProblem]) {
        try program(String(contentsOf: Fixtures.ours("sbg").appendingPathComponent(name), encoding: .utf8), now: now)
    }

    func fixture(_ name: String, now: Double = 0) throws -> (SessionProgram, [SessionProblem]) {
        guard let folder = Fixtures.peers("sbg") else { throw XCTSkip(Fixtures.peersAbsent("sbg")) }
        return try program(String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8), now: now)
    }

    func value(_ p: SessionProgram, _ address: String, at seconds: Double) -> Double? {
        p.state(at: Int64(seconds * 1000)).first { $0.address == address }?.value
    }

    /// One line, no -SE: the ring has one period, so the bed plays forever (imported as an hour):
    /// pink noise and one binaural tone, centred as SBaGen centres it.
    func checkEndlessBed(_ imported: (SessionProgram, [SessionProblem]), carrier: Double, beat: Double, level: Double, noise: Double) {
        let (p, warnings) = imported
        XCTAssertEqual(Double(p.frames) / 1000, 3600, accuracy: 0.01)
        XCTAssertTrue(warnings.contains { $0.message.contains("1 hour") })
        XCTAssertEqual(value(p, "/entrain/carrier", at: 1800), carrier)
        XCTAssertEqual(value(p, "/entrain/beat", at: 1800), beat)
        XCTAssertEqual(value(p, "/entrain/level", at: 1800)!, level, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/noise/level", at: 1800)!, noise, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/noise", at: 1), 1, "pink")
        XCTAssertEqual(value(p, "/entrain/convention", at: 1), 1, "left = carrier + beat/2")
    }

    func testABedWithoutEndPlaysAnHour() throws {
        checkEndlessBed(try own("pink-alpha-bed.sbg"), carrier: 250, beat: 8, level: 0.15, noise: 0.3)
    }

    /// -SE from 23:59:50 to 00:28: a 10 s slide from the empty set at constant pitch (not widened:
    /// the next line slides too), 10-minute glides of carrier, beat and level, and an 8-minute slide
    /// to silence: 28 min 10 s in all.
    func testSlidesAndGlides() throws {
        let (p, _) = try own("glide-from-silence.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 1690, accuracy: 0.01)
        // (address, session seconds, value, why); the glides start at 10 s (00:00). 1e-3: the
        // import opens with a 1 ms start stage, which shifts the first slide by 1 ms.
        let expected: [(String, Double, Double, String)] = [
            ("/entrain/level", 5, 0.2, "half-way up from silence"), ("/entrain/carrier", 5, 320, "at constant pitch"),
            ("/entrain/carrier", 310, 305, "half-way from a12 to a8"), ("/entrain/beat", 310, 10, ""), ("/entrain/level", 310, 0.4, ""),
            ("/entrain/carrier", 910, 275, "half-way from a8 to a4"), ("/entrain/level", 910, 0.3, "40 → 20 %"),
            ("/entrain/level", 1450, 0.1, "a4 sliding out to silence"), ("/entrain/carrier", 1450, 260, "at constant pitch"),
            ("/entrain/beat", 1450, 4, ""),
        ]
        for (address, at, v, why) in expected {
            XCTAssertEqual(value(p, address, at: at)!, v, accuracy: 1e-3, "\(address) at \(at) s: \(why)")
        }
    }

    /// NOW-relative lines with 1 s fades (-F 1000): without -S SBaGen starts at NOW, inside the
    /// base period; the pulses sit at NOW+5…8 s and NOW+10…13 s. Counting `+` from the line above
    /// instead would put them at 5…13 s and 23…36 s.
    func testNowRelativePulses() throws {
        let (p, warnings) = try own("now-pulses.sbg", now: 10 * 3600)
        XCTAssertTrue(warnings.contains { $0.message.contains("1 hour") })
        XCTAssertEqual(value(p, "/entrain/beat", at: 2), 3, "the base period holds NOW")
        XCTAssertEqual(value(p, "/entrain/level", at: 2)!, 0.3, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/level", at: 4.75)!, 0.15, accuracy: 1e-6, "the base fades out over 4.5–5 s")
        XCTAssertEqual(value(p, "/entrain/beat", at: 6.5), 6)
        XCTAssertEqual(value(p, "/entrain/level", at: 6.5)!, 0.3, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/level", at: 9)!, 0, accuracy: 1e-9, "quiet")
        XCTAssertEqual(value(p, "/entrain/level", at: 11.5)!, 0.3, accuracy: 1e-9, "the second pulse")
        XCTAssertEqual(value(p, "/entrain/level", at: 600)!, 0, accuracy: 1e-9, "quiet for the rest")
    }

    /// Nested blocks from 21:00 to 22:10: a 15-minute glide (theta7 → theta5), a change of pitch
    /// without `->` that fades through silence around 21:30, and `<>` fading to silence at the end;
    /// the brown bed glides on between equal sets and fades with the last.
    func testBlocksFadesAndNoise() throws {
        let (p, _) = try own("evening-blocks.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 4200, accuracy: 0.01)
        XCTAssertEqual(value(p, "/entrain/noise", at: 1), 2, "brown")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 450)!, 185, accuracy: 0.01, "half-way through the glide")
        XCTAssertEqual(value(p, "/entrain/beat", at: 450)!, 6, accuracy: 0.01)
        XCTAssertEqual(value(p, "/entrain/level", at: 1785)!, 0.125, accuracy: 1e-6, "theta5 fading out before 21:30")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 1785), 180, "its pitch held while fading")
        XCTAssertEqual(value(p, "/entrain/level", at: 1815)!, 0.125, accuracy: 1e-4, "alpha9 fading up after it")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 1815), 200)
        XCTAssertEqual(value(p, "/entrain/noise/level", at: 1800)!, 0.2, accuracy: 1e-9, "the bed glides on")
        XCTAssertEqual(value(p, "/entrain/level", at: 3600)!, 0.25, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/level", at: 4185)!, 0.125, accuracy: 1e-6, "fading to silence before 22:10")
        XCTAssertEqual(value(p, "/entrain/noise/level", at: 4185)!, 0.1, accuracy: 1e-6)
    }

    /// Four voice kinds on entrain's voices 1–3 and the noise bed, the bell on /bell, and the waveNN
    /// voice as a sine pair (its envelope not applied, with a warning).
    func testEveryVoiceKindLandsOnItsVoice() throws {
        let (p, warnings) = try own("voices-and-options.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 300, accuracy: 0.01)
        XCTAssertEqual(warnings.filter { $0.message.contains("tone-set 'mixed'") && $0.message.contains("left out") }.count, 0, "\(warnings)")
        XCTAssertEqual(warnings.filter { $0.message.contains("wave01 plays as a sine") }.count, 1, "\(warnings)")
        XCTAssertEqual(value(p, "/bell/frequency", at: 150), 800)
        XCTAssertEqual(value(p, "/entrain/noise", at: 1), 0, "white")
        XCTAssertEqual(value(p, "/entrain/noise/level", at: 150)!, 0.1, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/mode", at: 150), 0)
        XCTAssertEqual(value(p, "/entrain/waveform", at: 150), 1, "square")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 150), 220)
        XCTAssertEqual(value(p, "/entrain/voice/2/mode", at: 150), 2, "isochronic")
        XCTAssertEqual(value(p, "/entrain/voice/2/beat", at: 150), 10)
        XCTAssertEqual(value(p, "/entrain/voice/2/level", at: 150)!, 0.2, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/voice/3/mode", at: 150), 1, "monaural")
        XCTAssertEqual(value(p, "/entrain/voice/3/carrier", at: 150), 180)
        XCTAssertEqual(value(p, "/entrain/voice/3/beat", at: 150), 4)
    }

    func testCRLFFileHasTwoVoices() throws {
        let (p, _) = try own("two-voices-crlf.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 120, accuracy: 0.01)
        XCTAssertEqual(value(p, "/entrain/carrier", at: 60), 264)
        XCTAssertEqual(value(p, "/entrain/voice/2/carrier", at: 60), 396)
        XCTAssertEqual(value(p, "/entrain/voice/2/level", at: 60)!, 0.15, accuracy: 1e-9)
    }

    func testEveryOwnFileBecomesAValidSession() throws {
        XCTAssertEqual(try validSessions(in: Fixtures.ours("sbg")), 6, "all but the built-in program")
    }

    /// How many files in `folder` parse and become sessions that read back with their length.
    func validSessions(in folder: URL) throws -> Int {
        var imported = 0
        for url in Fixtures.files(in: folder, suffix: "sbg") {
            let name = url.lastPathComponent
            guard let text = try? String(contentsOf: url, encoding: .utf8),
                  let (file, parseWarnings) = try? SBGParser.parse(text, file: name) else { continue }
            var warnings = parseWarnings
            let session = try SBGTimeline.session(file, name: name, warnings: &warnings, path: name)
            let reread = try SessionDecoder.decode(SessionEncoder.json(session), file: name).session
            XCTAssertEqual(reread.duration, session.duration, accuracy: 0.01, name)
            imported += 1
        }
        return imported
    }

    /// A plain change without `->`: pink continues; the binaural slot changes pitch, so the old
    /// tone fades to 0 over the 30 s before 12:00 and the new one fades up over the 30 s after.
    func testPlainChangeFadesAroundTheChange() throws {
        let (p, _) = try program("""
        -SE
        theta6: pink/30 200+6/20
        alpha8: pink/30 210+8/20
        11:00 theta6
        12:00 alpha8
        13:00 theta6
        """)
        let change = 3600.0
        XCTAssertEqual(value(p, "/entrain/level", at: change - 31)!, 0.2, accuracy: 1e-9)
        // (1e-4: the switch at the midpoint takes a 1 ms stage, which shifts the fade-up by 1 ms.)
        XCTAssertEqual(value(p, "/entrain/level", at: change - 15)!, 0.1, accuracy: 1e-4)
        XCTAssertEqual(value(p, "/entrain/carrier", at: change - 15), 200, "no glide: the pitch holds while fading")
        XCTAssertEqual(value(p, "/entrain/carrier", at: change + 15), 210)
        XCTAssertEqual(value(p, "/entrain/level", at: change + 15)!, 0.1, accuracy: 1e-4)
        XCTAssertEqual(value(p, "/entrain/level", at: change + 31)!, 0.2, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/noise/level", at: change)!, 0.3, accuracy: 1e-9, "the pink noise simply continues")
    }

    // MARK: peers' originals (skipped when ../shared/fixtures is not beside the checkout)

    /// ts-brain-alpha: one line, no -SE: pink/40 with 300±5 Hz forever (imported as an hour).
    func testPeerBrainAlpha() throws {
        checkEndlessBed(try fixture("ts-brain-alpha.sbg"), carrier: 300, beat: 10, level: 0.1, noise: 0.4)
    }

    /// prog-tape-3 (-SE): a 5 s slide from silence into t00 at constant pitch, 6-minute glides
    /// t00 → … → t04, and t04 fading to silence over 0:24–0:30; 30 min 5 s in all.
    func testPeerTapeThree() throws {
        let (p, _) = try fixture("prog-tape-3.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 1805, accuracy: 0.01)
        XCTAssertEqual(value(p, "/entrain/level", at: 2.5)!, 0.15, accuracy: 0.001, "half-way up from silence")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 2.5), 300, "at constant pitch")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 5 + 180)!, 287.5, accuracy: 0.01, "half-way from t00 to t01")
        XCTAssertEqual(value(p, "/entrain/beat", at: 5 + 180)!, 7, accuracy: 0.01)
        XCTAssertEqual(value(p, "/entrain/level", at: 5 + 180)!, 0.3, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/level", at: 5 + 24 * 60 + 180)!, 0.15, accuracy: 0.001, "t04 fading out")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 5 + 24 * 60 + 180), 200)
        XCTAssertEqual(value(p, "/entrain/beat", at: 5 + 24 * 60 + 180), 1.5)
    }

    /// pulse-1: no -S, times from NOW. SBaGen starts at NOW, inside t00's long period; from NOW+2 s
    /// one-second pulse sets alternate with `off` for about two minutes, then `off` goes on.
    func testPeerPulseOneStartsAtNow() throws {
        let (p, _) = try fixture("pulse-1.sbg", now: 10 * 3600)
        XCTAssertEqual(value(p, "/entrain/level", at: 3.5)!, 0.4, accuracy: 1e-6, "t01 (100+0.450/40) at the middle of its second")
        XCTAssertEqual(value(p, "/entrain/beat", at: 3.5)!, 0.45, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/level", at: 4.5)!, 0, accuracy: 1e-9, "then off")
        XCTAssertEqual(value(p, "/entrain/level", at: 600)!, 0, accuracy: 1e-9, "off for the rest")
    }

    /// cy-prana-energiser is a CRLF file: it must read as lines, not as one line.
    func testPeerCRLFFilesRead() throws {
        let (p, _) = try fixture("cy-prana-energiser.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 181, accuracy: 0.01, "00:00:00 to 00:03:01 with -SE")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 1), 744)
        XCTAssertEqual(value(p, "/entrain/voice/2/carrier", at: 1), 312)
    }

    func testEveryParsablePeerFileBecomesAValidSession() throws {
        guard let folder = Fixtures.peers("sbg") else { throw XCTSkip(Fixtures.peersAbsent("sbg")) }
        XCTAssertGreaterThanOrEqual(try validSessions(in: folder), 27)
    }
}
