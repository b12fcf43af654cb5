import Foundation
import TestSupport
import XCTest

/// `entrain validate` on every format the program reads, each told by its content.
final class ValidateCommandTests: XCTestCase {
    /// `validate` tells every format by its content: an AHAP pattern (it called one a session
    /// with "missing stages"), also under a .json name; a playlist; Gnaural and SBaGen files
    /// whatever they are called; and a broken pattern's problem comes with its line.
    func testValidateTellsEveryFormatByItsContent() throws {
        let scratch = try TemporaryFolder("validate-kinds")
        let root = EntrainBinary.packageRoot, fixtures = root.appendingPathComponent("Tests/Fixtures")
        let ahap = try String(contentsOf: root.appendingPathComponent("patterns/heartbeat.ahap"), encoding: .utf8)
        let cases: [(URL, String)] = [
            (root.appendingPathComponent("patterns/heartbeat.ahap"), "ok — haptic pattern (AHAP)"),
            (try scratch.write(ahap, "heartbeat.json"), "ok — haptic pattern (AHAP)"),
            (try scratch.write(#"{ "format": "entrain-playlist/1", "name": "p", "items": [ { "session": "alpha-relaxation" } ] }"#, "p.json"),
             "ok — playlist, 1 item"),
            (try scratch.write(try String(contentsOf: fixtures.appendingPathComponent("gnaural/slow-descent.gnaural"), encoding: .utf8), "descent"),
             "(Gnaural)"),
            (try scratch.write(try String(contentsOf: fixtures.appendingPathComponent("sbg/evening-blocks.sbg"), encoding: .utf8), "evening.txt"),
             "(SBaGen)"),
            (root.appendingPathComponent("sessions/alpha-relaxation.json"), "stages,"),
        ]
        for (file, expected) in cases {
            let result = try EntrainBinary.run(["validate", file.path])
            XCTAssertEqual(result.status, 0, "\(file.lastPathComponent): \(result.error)")
            XCTAssertTrue(result.output.contains(expected), "\(file.lastPathComponent): \(result.output)")
        }
        let broken = try scratch.write(#"{ "Version": 1, "Pattern": [ { "Event": { "Time": -1, "EventType": "HapticTransient" } } ] }"#, "broken.ahap")
        let refused = try EntrainBinary.run(["validate", broken.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.error.contains("broken.ahap:1:"), refused.error)
        XCTAssertFalse(refused.error.contains("stages"), refused.error)
    }
}
