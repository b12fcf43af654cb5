import EntrainControl
import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// Gnaural schedules as sessions. Our own schedules in Tests/Fixtures/gnaural cover every voice
/// type, ramps, jumps and loops; peers' originals, when beside the checkout, too.
final class GnauralImportTests: XCTestCase {
    func own(_ name: String) -> URL { Fixtures.ours("gnaural").appendingPathComponent(name) }

    func fixture(_ name: String) throws -> URL {
        guard let folder = Fixtures.peers("gnaural") else { throw XCTSkip(Fixtures.peersAbsent("gnaural")) }
        return folder.appendingPathComponent(name)
    }

    func value(_ session: Session, _ address: String, at seconds: Double) -> Double? {
        SessionProgram(session, sampleRate: 48_000).state(at: Int64(seconds * 48_000)).first { $0.address == address }?.value
    }

    /// Every schedule in `folder` imports, and what an import writes reads back as a valid session.
    func importEvery(in folder: URL) throws -> Int {
        let files = Fixtures.files(in: folder, suffix: "gnaural")
        for url in files {
            let (session, _) = try GnauralImporter.load(url)
            let file = url.lastPathComponent
            XCTAssertGreaterThan(session.duration, 0, file)
            let reread = try SessionDecoder.decode(SessionEncoder.json(session), file: file).session
            XCTAssertEqual(reread.stages.count, session.stages.count, file)
            XCTAssertEqual(reread.duration, session.duration, accuracy: 1e-3, file)
        }
        return files.count
    }

    func testEveryOwnScheduleImports() throws {
        XCTAssertEqual(try importEvery(in: Fixtures.ours("gnaural")), 2)
    }

    /// slow-descent: (1e-4: the jump becomes a 1 ms stage, which moves the ramps by up to 1 ms.)
    /// The binaural voice ramps 10 → 6 Hz (220 → 200 Hz) over 240 s, holds to 600 s,
    /// jumps to 8 Hz (a zero-length entry) and ramps back towards its first entry; the pink bed
    /// ramps 0.3 → 0.1 → 0.3; the pulses hold; the water voice and the muted one are left out.
    func testOwnScheduleFollowsGnauralsRamps() throws {
        let (session, warnings) = try GnauralImporter.load(own("slow-descent.gnaural"))
        XCTAssertEqual(session.name, "Slow Descent")
        XCTAssertEqual(session.duration, 720, accuracy: 0.01)
        XCTAssertEqual(value(session, "/entrain/volume", at: 1)!, 0.9, accuracy: 1e-9, "the overall volume")
        XCTAssertEqual(value(session, "/entrain/beat", at: 120)!, 8, accuracy: 1e-4, "half-way down the first ramp")
        XCTAssertEqual(value(session, "/entrain/carrier", at: 120)!, 210, accuracy: 1e-4)
        XCTAssertEqual(value(session, "/entrain/level", at: 120)!, 0.525, accuracy: 1e-4)
        XCTAssertEqual(value(session, "/entrain/beat", at: 420)!, 6, accuracy: 1e-4, "the hold")
        XCTAssertEqual(value(session, "/entrain/beat", at: 660)!, 9, accuracy: 1e-4, "after the jump, half-way back to the first entry")
        XCTAssertEqual(value(session, "/entrain/carrier", at: 660)!, 215, accuracy: 1e-4)
        XCTAssertEqual(value(session, "/entrain/level", at: 660)!, 0.45, accuracy: 1e-4)
        XCTAssertEqual(value(session, "/entrain/convention", at: 10), 1, "Gnaural's beat is centred on the carrier")
        XCTAssertEqual(value(session, "/entrain/noise/level", at: 180)!, 0.2, accuracy: 1e-4, "the pink voice is the noise bed")
        XCTAssertEqual(value(session, "/entrain/noise/level", at: 540)!, 0.2, accuracy: 1e-4)
        XCTAssertEqual(value(session, "/entrain/voice/2/mode", at: 300), 2, "isochronic")
        XCTAssertEqual(value(session, "/entrain/voice/2/carrier", at: 300), 400)
        XCTAssertEqual(value(session, "/entrain/voice/2/beat", at: 300), 40)
        XCTAssertEqual(value(session, "/entrain/voice/2/level", at: 300)!, 0.25, accuracy: 1e-9, "left 0.2 and right 0.3 averaged")
        XCTAssertEqual(value(session, "/entrain/voice/2/duty", at: 300), 0.5)
        for expected in ["left and right volumes are averaged", "(water, rain) is not synthesized", "is muted"] {
            XCTAssertTrue(warnings.contains { $0.message.contains(expected) }, "\(expected): \(warnings)")
        }
        XCTAssertEqual(warnings.count, 3, "\(warnings)")
    }

    /// endless-loop: loops 0 and 150 s a pass become 24 passes (an hour), with the low carrier
    /// held at 20 Hz and the alternating pulses in both ears, each said in a warning.
    func testOwnEndlessLoopBecomesAnHourAndWarns() throws {
        let (session, warnings) = try GnauralImporter.load(own("endless-loop.gnaural"))
        XCTAssertEqual(session.duration, 3600, accuracy: 0.05, "each pass after the first drops its 1 ms start stage")
        for expected in ["loops forever", "outside 20–1500 Hz", "alternating isochronic"] {
            XCTAssertTrue(warnings.contains { $0.message.contains(expected) }, "\(expected): \(warnings)")
        }
        XCTAssertEqual(value(session, "/entrain/voice/2/beat", at: 1000), 12)
    }

    // MARK: peers' originals (skipped when ../shared/fixtures is not beside the checkout)

    func testEveryPeerScheduleImports() throws {
        guard let folder = Fixtures.peers("gnaural") else { throw XCTSkip(Fixtures.peersAbsent("gnaural")) }
        XCTAssertEqual(try importEvery(in: folder), 10)
    }

    /// The Schumann original: 300 s from 12 Hz down to 7.83, 600 s at 7.83, 300 s back.
    func testPeerTimelineFollowsGnauralsRamps() throws {
        let (session, warnings) = try GnauralImporter.load(try fixture("meditation-schumann-resonance.gnaural"))
        XCTAssertEqual(session.name, "Schumann Resonance")
        XCTAssertEqual(session.duration, 1200.003, accuracy: 0.01)
        XCTAssertTrue(warnings.isEmpty, "\(warnings)")
        func value(_ address: String, at seconds: Double) -> Double? { self.value(session, address, at: seconds) }
        XCTAssertEqual(value("/entrain/beat", at: 150)!, (12 + 7.83) / 2, accuracy: 0.01, "half-way down the first ramp")
        XCTAssertEqual(value("/entrain/carrier", at: 150)!, (438 + 435.915) / 2, accuracy: 0.01)
        XCTAssertEqual(value("/entrain/beat", at: 600)!, 7.83, accuracy: 1e-6)
        XCTAssertEqual(value("/entrain/level", at: 600)!, 0.65, accuracy: 1e-6, "the 600 s entry holds 0.65 (a 1 ms entry ramps up to it)")
        XCTAssertEqual(value("/entrain/level", at: 1050)!, 0.6, accuracy: 1e-6, "back to 0.6 through a 1 ms entry at 900 s")
        XCTAssertEqual(value("/entrain/beat", at: 1050)!, (7.83 + 12) / 2, accuracy: 0.01, "half-way back up the last ramp")
        XCTAssertEqual(value("/entrain/convention", at: 10), 1, "Gnaural's beat is centred on the carrier")
        XCTAssertNotNil(value("/entrain/noise/level", at: 10), "the pink noise voice becomes the noise bed")
    }

    func testPeerEndlessLoopsBecomeAboutAnHourAndWarn() throws {
        let (session, warnings) = try GnauralImporter.load(try fixture("8-voice.gnaural"))
        XCTAssertEqual(session.duration, 3600, accuracy: 5)
        XCTAssertTrue(warnings.contains { $0.message.contains("loops forever") })
    }

    func testBrokenFilesAreReportedWithLines() {
        let cases: [(String, String)] = [
            ("<schedule><voice><type>0</type><entries>\n<entry duration=\"x\"/></entries></voice></schedule>", "needs numeric duration"),
            ("<notgnaural/>", "no <schedule>"),
            ("<schedule><voice>", "not well-formed"),
        ]
        for (xml, expected) in cases {
            XCTAssertThrowsError(try GnauralImporter.convert(Data(xml.utf8), file: "x.gnaural")) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
                XCTAssertTrue("\(error)".hasPrefix("x.gnaural:"), "\(error)")
            }
        }
    }
}
