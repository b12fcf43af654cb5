import EntrainControl
import Foundation
import TestSupport
import XCTest

/// SBaGen files played as 1.4.5 plays them: the worked examples of entrainment-peers.md §2.12.
final class SBGTimelineTests: XCTestCase {
    let fixtures = EntrainBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sbg")

    func program(_ text: String) throws -> (SessionProgram, [SessionProblem]) {
        var (file, warnings) = try SBGParser.parse(text, file: "t.sbg")
        let session = try SBGTimeline.session(file, name: "t", warnings: &warnings, path: "t.sbg")
        return (SessionProgram(session, sampleRate: 1000), warnings)
    }

    func fixture(_ name: String) throws -> (SessionProgram, [SessionProblem]) {
        guard let text = try? String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8) else { throw XCTSkip("fixtures not beside the project") }
        return try program(text)
    }

    func value(_ p: SessionProgram, _ address: String, at seconds: Double) -> Double? {
        p.state(at: Int64(seconds * 1000)).first { $0.address == address }?.value
    }

    /// ts-brain-alpha: one line, no -SE: pink/40 with 300±5 Hz forever (imported as an hour).
    func testBrainAlpha() throws {
        let (p, warnings) = try fixture("ts-brain-alpha.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 3600, accuracy: 0.01)
        XCTAssertTrue(warnings.contains { $0.message.contains("1 hour") })
        XCTAssertEqual(value(p, "/entrain/carrier", at: 1800), 300)
        XCTAssertEqual(value(p, "/entrain/beat", at: 1800), 10)
        XCTAssertEqual(value(p, "/entrain/level", at: 1800)!, 0.1, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/noise/level", at: 1800)!, 0.4, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/convention", at: 1), 1, "left = carrier + beat/2")
    }

    /// prog-tape-3 (-SE): a 5 s slide from silence into t00 at constant pitch, 6-minute glides
    /// t00 → … → t04, and t04 fading to silence over 0:24–0:30; 30 min 5 s in all.
    func testTapeThree() throws {
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

    /// pulse-1: no -S, times from NOW. SBaGen starts at NOW, inside t00's long period; from NOW+2 s
    /// one-second pulse sets alternate with `off` for about two minutes, then `off` goes on.
    func testPulseOneStartsAtNow() throws {
        guard let text = try? String(contentsOf: fixtures.appendingPathComponent("pulse-1.sbg"), encoding: .utf8) else { throw XCTSkip("fixtures") }
        var (file, warnings) = try SBGParser.parse(text, file: "pulse-1.sbg", now: 10 * 3600)
        let p = SessionProgram(try SBGTimeline.session(file, name: "pulse-1", warnings: &warnings, path: "pulse-1.sbg"), sampleRate: 1000)
        XCTAssertEqual(value(p, "/entrain/level", at: 3.5)!, 0.4, accuracy: 1e-6, "t01 (100+0.450/40) at the middle of its second")
        XCTAssertEqual(value(p, "/entrain/beat", at: 3.5)!, 0.45, accuracy: 1e-9)
        XCTAssertEqual(value(p, "/entrain/level", at: 4.5)!, 0, accuracy: 1e-9, "then off")
        XCTAssertEqual(value(p, "/entrain/level", at: 600)!, 0, accuracy: 1e-9, "off for the rest")
    }

    /// cy-prana-energiser is a CRLF file: it must read as lines, not as one line.
    func testCRLFFilesRead() throws {
        let (p, _) = try fixture("cy-prana-energiser.sbg")
        XCTAssertEqual(Double(p.frames) / 1000, 181, accuracy: 0.01, "00:00:00 to 00:03:01 with -SE")
        XCTAssertEqual(value(p, "/entrain/carrier", at: 1), 744)
        XCTAssertEqual(value(p, "/entrain/voice/2/carrier", at: 1), 312)
    }

    func testEveryParsedFixtureBecomesAValidSession() throws {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".sbg") }) ?? []
        guard !files.isEmpty else { throw XCTSkip("fixtures not beside the project") }
        var imported = 0
        for name in files.sorted() {
            guard let text = try? String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8),
                  var (file, warnings) = try? SBGParser.parse(text, file: name) else { continue }
            let session = try SBGTimeline.session(file, name: name, warnings: &warnings, path: name)
            let reread = try SessionDecoder.decode(SessionEncoder.json(session), file: name).session
            XCTAssertEqual(reread.duration, session.duration, accuracy: 0.01, name)
            imported += 1
        }
        XCTAssertGreaterThanOrEqual(imported, 27)
    }
}
