import EntrainEngine
import Foundation
import TestSupport
import XCTest

final class SessionLiveTests: LiveClientTestCase {
    /// A session played live through JACK is the same, sample for sample, as its offline render,
    /// and the client ends by itself when the session does.
    func testLiveSessionEqualsOfflineRender() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
        { "name": "test", "stages": [
            { "duration": 1.5, "volume": 0.5, "noise": { "color": "pink", "level": 0.2 },
              "voices": [ { "carrier": 220, "beat": 8 } ] },
            { "duration": 2, "transition": "linear", "voices": [ { "beat": 4, "carrier": 180 } ] },
            { "duration": 1, "transition": "crossfade", "fade": 0.5, "voices": [ { "mode": "isochronic" } ] },
            { "duration": 2.5, "transition": "exponential", "voices": [ { "beat": 12 } ] } ] }
        """.write(to: file, atomically: true, encoding: .utf8)
        let arguments = ["--session", file.path, "--fade-in", "0.5", "--fade-out", "1"]

        let rec = try recorder(seconds: 4)
        let client = try startClient(arguments, recorder: rec)
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        let take = try rec.record()
        XCTAssertTrue(client.signal(0, waitUpTo: 8), "the client ends when the session ends")
        XCTAssertEqual(client.result().status, 0, client.result().error)

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: out) }
        let render = try EntrainBinary.run(["render", "--out", out.path] + arguments)
        XCTAssertEqual(render.status, 0, render.error)
        let offline = try WAVFile(contentsOf: out).samples
        XCTAssertEqual(offline[0].count, 336_000, "the session's 7 s")

        guard let start = Measure.firstSoundOnEveryChannel(take) else { return XCTFail("recorded only silence") }
        XCTAssertGreaterThan(take[0].count - start, 48_000)
        // (Where no xrun touched the take: a cycle the client missed leaves stale samples there.)
        XCTAssertNil(rec.firstDifference(take, from: start, count: 2 * 48_000, render: offline))
        print("live session: equal to the render in \(rec.untouchedStretches.count) stretch(es) between xruns")
    }
}
