import EntrainControl
import EntrainEngine
import Foundation
import XCTest

/// SBaGen files written to break the importer: blocks that contain themselves, values no audio
/// can mean, and a day of one-second time lines.
final class SBGHostileTests: XCTestCase {
    func problem(_ text: String) -> String? {
        do {
            var (file, warnings) = try SBGParser.parse(text, file: "x.sbg")
            _ = try SBGTimeline.session(file, name: "x", warnings: &warnings, path: "x.sbg")
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testABlockThatContainsItselfIsAnErrorOnTheLineThatNamesIt() {
        let selfish = "-SE\na: 200+10/20\nb: {\n+0:00 a\n+0:05 b\n}\n00:00 b\n00:10 a\n"
        XCTAssertEqual(problem(selfish), "x.sbg:5:1: error: block 'b' names itself (b → b): a block cannot contain itself")
        let mutual = "-SE\na: 200+10/20\nb: {\n+0:00 a\n+0:05 c\n}\nc: {\n+0:00 b\n}\n00:00 c\n00:10 a\n"
        XCTAssertEqual(problem(mutual), "x.sbg:5:1: error: block 'c' names itself (c → b → c): a block cannot contain itself")
    }

    func testDeepAndExplosiveBlocksAreRefused() {
        // A chain of 20 blocks, each naming the one before.
        var chain = "-SE\na: 200+10/20\nb0: {\n+0:00 a\n}\n"
        for k in 1...20 { chain += "b\(k): {\n+0:00 b\(k - 1)\n}\n" }
        chain += "00:00 b20\n00:10 a\n"
        XCTAssertTrue(problem(chain)?.contains("blocks nested more than 16 deep") ?? false, "\(problem(chain) ?? "accepted")")
        // Ten lines of the one before, eight levels: 10^8 time lines if expanded.
        var bomb = "-SE\na: 200+10/20\nb0: {\n+0:00 a\n}\n"
        for k in 1...8 { bomb += "b\(k): {\n" + (0..<10).map { "+00:0\($0) b\(k - 1)\n" }.joined() + "}\n" }
        bomb += "00:00 b8\n"
        XCTAssertTrue(problem(bomb)?.contains("more than 200,000 time lines") ?? false, "\(problem(bomb) ?? "accepted")")
    }

    /// Used to be clamped silently (or to poison the timeline with NaN).
    func testValuesNoAudioCanMeanAreErrorsWithTheirLine() {
        let bad = ["nan+10/20", "inf+10/20", "1e300+10/20", "0+10/20", "200+nan/20", "200-inf/20", "200+1e300/20",
                   "200@inf/20", "200Mnan/20", "200+10/1e309", "200+10/nan", "pink/1e309", "white/-5", "200+10/101"]
        for token in bad {
            let message = problem("-SE\n\nts: \(token)\n00:00 ts\n00:10 ts\n") ?? "accepted"
            XCTAssertTrue(message.hasPrefix("x.sbg:3:1: error: '\(token)': the "), "\(token): \(message)")
        }
        XCTAssertNil(problem("-SE\nts: 200+10/20 pink/30 300@4/10 250M6/10 100/5\n00:00 ts\n00:10 ts\n"))
        XCTAssertTrue(problem("-F inf\nts: 200+10/20\n00:00 ts\n")?.contains("-F needs milliseconds") ?? false)
    }

    func testValuesBeyondEntrainsRangeAreHeldWithAWarning() throws {
        var (file, warnings) = try SBGParser.parse("-SE\nts: 3000+300/20\n00:00 ts\n00:10 ts\n", file: "x.sbg")
        _ = try SBGTimeline.session(file, name: "x", warnings: &warnings, path: "x.sbg")
        XCTAssertTrue(warnings.map(\.description).contains(
            "x.sbg:2:1: warning: tone-set 'ts': carrier 3000 Hz held at 1500 Hz, beat 300 Hz held at 100 Hz (entrain's range)"), "\(warnings)")
    }

    /// A day of one-second time lines (what took 41 s): every change is there, in order.
    func testADayOfOneSecondLinesImportsWhole() throws {
        var text = "-SE\na: 200+10/20\nb: 210+8/20\nc: 190+6/30\n"
        let names = ["a", "b", "c"]
        for i in 0..<86_400 { text += String(format: "%02d:%02d:%02d %@\n", i / 3600, i / 60 % 60, i % 60, names[i % 3]) }
        var (file, warnings) = try SBGParser.parse(text, file: "day.sbg")
        XCTAssertEqual(file.timeline.count, 86_400)
        let session = try SBGTimeline.session(file, name: "day", warnings: &warnings, path: "day.sbg")
        XCTAssertEqual(session.duration, 86_399, accuracy: 1e-6)
        let program = SessionProgram(session, sampleRate: 1000)
        // Each second holds one tone-set's values for most of the second, in the file's order.
        for second in [0, 1, 2, 43_200, 43_201, 86_397] {
            let state = program.state(at: Int64(second) * 1000 + 10)
            let beat = state.first { $0.address == "/entrain/beat" }?.value
            let expected = [10.0, 8, 6][second % 3]
            XCTAssertEqual(try XCTUnwrap(beat, "second \(second)"), expected, accuracy: 1.5, "second \(second)")
        }
    }
}
