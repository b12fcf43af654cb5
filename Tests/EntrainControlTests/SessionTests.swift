import EntrainControl
import EntrainEngine
import Foundation
import TestSupport
import XCTest

final class SessionTests: XCTestCase {
    func decode(_ text: String) throws -> Session { try SessionDecoder.decode(text, file: "t.json").session }

    func problems(_ text: String) -> [SessionProblem] {
        do { _ = try SessionDecoder.decode(text, file: "t.json"); return [] } catch let e as SessionLoadError { return e.problems } catch { return [] }
    }

    func testJSONPositionsAndSyntaxErrors() throws {
        let root = try JSONDocument.parse("{\n  \"a\": [1,\n   true]\n}")
        XCTAssertEqual(root["a"]?.line, 2)
        XCTAssertEqual(root["a"]?.column, 8)
        guard case .array(let items) = root["a"]?.value else { return XCTFail() }
        XCTAssertEqual(items[1].line, 3)
        XCTAssertEqual(items[1].column, 4)
        for (text, line, column) in [("{\"a\": 1,}", 1, 9), ("[1, 2", 1, 6), ("{\"a\": tru}", 1, 7), ("\"x\ny\"", 1, 3)] {
            XCTAssertThrowsError(try JSONDocument.parse(text)) { error in
                guard let e = error as? JSONSyntaxError else { return XCTFail("\(error)") }
                XCTAssertEqual([e.line, e.column], [line, column], "\(text): \(e)")
            }
        }
    }

    /// Every problem at once, each where it is, with what was expected.
    func testEveryProblemIsReportedWithItsPosition() {
        let text = """
        {
          "stages": [
            { "duraton": 60, "voices": [ { "carrier": 5000, "mode": "stereo" } ] },
            { "duration": "1:xx", "transition": "slide" },
            { "duration": 10, "volume": "loud", "voices": [ { "mode": "isochronic", "beat": 0.2 } ] }
          ]
        }
        """
        let found = problems(text).map { "\($0.line):\($0.column) \($0.isWarning ? "W" : "E") \($0.message)" }
        let expected = [
            "3:18 W stage 1: unknown key \"duraton\" (did you mean \"duration\"?); it is kept but not used",
            "3:5 E stage 1: missing \"duration\" (seconds, or \"mm:ss\")",
            "3:47 E /entrain/carrier: 5000 Hz is out of range 20–1500 Hz",
            "3:61 E /entrain/mode: 'stereo' is not one of binaural, monaural, isochronic (or its index)",
            "4:19 E \"duration\" must be more than 0 and at most a week (604800 seconds): a number of seconds, or \"mm:ss\" / \"hh:mm:ss\"",
            "4:41 E \"transition\" must be one of hold, crossfade, linear, exponential",
            "5:33 E /entrain/volume: expects a number, got 'loud'",
            "5:5 E stage 3 (stage 3): /entrain/beat: isochronic pulses need a rate of at least 0.5 Hz (beat is 0.2 Hz)",
        ]
        XCTAssertEqual(Set(found), Set(expected), found.joined(separator: "\n"))
    }

    func testPluginBlocksAreKeptAndDurationsParse() throws {
        let session = try decode("""
        { "name": "x", "stages": [ { "duration": "1:02:03", "ambient": { "preset": "Kessho", "seed": 7 } },
                                   { "duration": "0:30", "led": { "source": "beat" } } ] }
        """)
        XCTAssertEqual(session.stages.map(\.duration), [3723, 30])
        XCTAssertEqual(session.stages[0].pluginBlocks.map(\.key), ["ambient"])
        XCTAssertEqual(session.stages[0].pluginBlocks.first?.value["seed"]?.value, .number(7))
        XCTAssertEqual(session.stages[1].pluginBlocks.map(\.key), ["led"])
    }

    /// Writing a session back keeps its plugin blocks whole (nested values, arrays, text).
    func testPluginBlocksSurviveAnEncodeDecodeRoundTrip() throws {
        let session = try decode("""
        { "name": "x", "stages": [ { "duration": 60, "ambient": { "preset": "Zone \\"1\\"", "crossfade": 2.5,
                                     "list": [1, true, null, { "a": -0.125 }] }, "haptic": { "pattern": "rain" } } ] }
        """)
        let again = try decode(SessionEncoder.json(session))
        func plain(_ v: JSONValue) -> String { SessionEncoder.json(v) }
        XCTAssertEqual(again.stages[0].pluginBlocks.map(\.key), ["ambient", "haptic"])
        XCTAssertEqual(again.stages[0].pluginBlocks.map { plain($0.value.value) }, session.stages[0].pluginBlocks.map { plain($0.value.value) })
        XCTAssertEqual(again.stages[0].pluginBlocks[0].value["crossfade"]?.value, .number(2.5))
        XCTAssertEqual(again.stages[0].pluginBlocks[0].value["preset"]?.value, .string("Zone \"1\""))
    }

    func testShippedSessionsAreValid() throws {
        let folder = EntrainBinary.packageRoot.appendingPathComponent("sessions")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files {
            let (session, warnings) = try SessionDecoder.load(folder.appendingPathComponent(file))
            XCTAssertEqual(warnings.count, 0, file)
            XCTAssertFalse(session.description.isEmpty, "\(file) says what it is for")
        }
    }

    func render(_ text: String, seconds: Double? = nil) throws -> (left: [Float], right: [Float]) {
        let program = SessionProgram(try decode(text), sampleRate: 48_000)
        let host = try EngineHost(sampleRate: 48_000, values: program.initialValues(try TestEngine.values()))
        let player = SessionPlayer(program: program, startFrame: 0)
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var left: [Float] = [], right: [Float] = []
        let frames = Int(((seconds ?? program.session.duration) * 48_000).rounded())
        var done = 0
        while done < frames {
            let n = min(256, frames - done)
            try player.send(through: host.frame + Int64(n), to: host)
            renderer.renderBlock(n) { io in
                left += UnsafeBufferPointer(start: io[.entrainmentL], count: n)
                right += UnsafeBufferPointer(start: io[.entrainmentR], count: n)
            }
            done += n
        }
        return (left, right)
    }

    /// Stage boundaries land on round(seconds × rate), to the sample.
    func testStageBoundariesAreSampleAccurate() throws {
        let (l, _) = try render("""
        { "stages": [ { "duration": 1.2345, "volume": 0, "voices": [ { "carrier": 201.3 } ] },
                      { "duration": 0.5, "transition": "crossfade", "fade": 0, "volume": 0.5 } ] }
        """)
        XCTAssertEqual(l.firstIndex { $0 != 0 }, 59_256 + 71, "1.2345 s = frame 59,256, plus the limiter's delay")
    }

    func testSlidesFollowTheirCurves() throws {
        let (l, r) = try render("""
        { "stages": [ { "duration": 1, "voices": [ { "carrier": 200, "beat": 10 } ] },
                      { "duration": 10, "transition": "linear", "voices": [ { "beat": 6 } ] },
                      { "duration": 10, "transition": "exponential", "voices": [ { "carrier": 400 } ] } ] }
        """)
        func frequency(_ x: [Float], at seconds: Double, _ low: Double, _ high: Double) -> Double {
            let c = Int(seconds * 48_000)
            return Spectrum(Array(x[(c - 12_000)..<(c + 12_000)]), sampleRate: 48_000).peak(from: low, to: high).frequency
        }
        XCTAssertEqual(frequency(r, at: 6, 195, 215) - frequency(l, at: 6, 190, 210), 8, accuracy: 0.15, "linear: half-way from 10 to 6")
        XCTAssertEqual(frequency(l, at: 16, 250, 350), (200.0 * 400).squareRoot(), accuracy: 0.5, "exponential: the geometric mean")
    }
}
