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
        let live = Array(take[0][start...].prefix(2 * 48_000)), liveR = Array(take[1][start...].prefix(2 * 48_000))
        XCTAssertGreaterThan(live.count, 48_000)
        guard let offset = (0..<(offline[0].count - live.count)).first(where: { o in
            offline[0][o] == live[0] && offline[0][o + 1] == live[1] && offline[0][o + 2] == live[2]
        }) else { return XCTFail("the live output does not occur in the offline render") }
        XCTAssertNil(Measure.firstDifference(live, Array(offline[0][offset..<(offset + live.count)])), "left")
        XCTAssertNil(Measure.firstDifference(liveR, Array(offline[1][offset..<(offset + live.count)])), "right")
    }
}
