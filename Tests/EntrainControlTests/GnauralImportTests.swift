import EntrainControl
import EntrainEngine
import Foundation
import TestSupport
import XCTest

final class GnauralImportTests: XCTestCase {
    let fixtures = EntrainBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/gnaural")

    func fixture(_ name: String) throws -> URL {
        let url = fixtures.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("fixtures not beside the project") }
        return url
    }

    func testEveryFixtureImports() throws {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".gnaural") }) ?? []
        guard !files.isEmpty else { throw XCTSkip("fixtures not beside the project") }
        for file in files {
            let (session, _) = try GnauralImporter.load(fixtures.appendingPathComponent(file))
            XCTAssertGreaterThan(session.duration, 0, file)
            // And what an import writes reads back as a valid session.
            let reread = try SessionDecoder.decode(SessionEncoder.json(session), file: file).session
            XCTAssertEqual(reread.stages.count, session.stages.count, file)
            XCTAssertEqual(reread.duration, session.duration, accuracy: 1e-3, file)
        }
    }

    /// The Schumann fixture: 300 s from 12 Hz down to 7.83, 600 s at 7.83, 300 s back.
    func testTheTimelineFollowsGnauralsRamps() throws {
        let (session, warnings) = try GnauralImporter.load(try fixture("meditation-schumann-resonance.gnaural"))
        XCTAssertEqual(session.name, "Schumann Resonance")
        XCTAssertEqual(session.duration, 1200.003, accuracy: 0.01)
        XCTAssertTrue(warnings.isEmpty, "\(warnings)")
        let program = SessionProgram(session, sampleRate: 48_000)
        func value(_ address: String, at seconds: Double) -> Double? {
            program.state(at: Int64(seconds * 48_000)).first { $0.address == address }?.value
        }
        XCTAssertEqual(value("/entrain/beat", at: 150)!, (12 + 7.83) / 2, accuracy: 0.01, "half-way down the first ramp")
        XCTAssertEqual(value("/entrain/carrier", at: 150)!, (438 + 435.915) / 2, accuracy: 0.01)
        XCTAssertEqual(value("/entrain/beat", at: 600)!, 7.83, accuracy: 1e-6)
        XCTAssertEqual(value("/entrain/level", at: 600)!, 0.65, accuracy: 1e-6, "the 600 s entry holds 0.65 (a 1 ms entry ramps up to it)")
        XCTAssertEqual(value("/entrain/level", at: 1050)!, 0.6, accuracy: 1e-6, "back to 0.6 through a 1 ms entry at 900 s")
        XCTAssertEqual(value("/entrain/beat", at: 1050)!, (7.83 + 12) / 2, accuracy: 0.01, "half-way back up the last ramp")
        XCTAssertEqual(value("/entrain/convention", at: 10), 1, "Gnaural's beat is centred on the carrier")
        XCTAssertNotNil(value("/entrain/noise/level", at: 10), "the pink noise voice becomes the noise bed")
    }

    func testEndlessLoopsBecomeAboutAnHourAndWarn() throws {
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
