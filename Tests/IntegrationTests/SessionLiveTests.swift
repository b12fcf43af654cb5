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
        let end = min(take[0].count, start + 2 * 48_000)
        XCTAssertGreaterThan(end - start, 48_000)
        guard var offset = (0..<(offline[0].count - (end - start))).first(where: { o in
            offline[0][o] == take[0][start] && offline[0][o + 1] == take[0][start + 1] && offline[0][o + 2] == take[0][start + 2]
        }) else { return XCTFail("the live output does not occur in the offline render") }
        // Stretch by stretch between the cycles an xrun cost the take: where the take lacks frames
        // the render skips them too (the client played them) or not (the client lost them as well).
        let losses = rec.timeline.losses.filter { $0.position > start && $0.position < end }
        var from = start
        for (stop, lost) in losses.map({ ($0.position, $0.frames) }) + [(end, 0)] {
            guard offset + stop - start <= offline[0].count else { return XCTFail("the live take runs past the render") }
            for (channel, name) in [(0, "left"), (1, "right")] {
                XCTAssertNil(Measure.firstDifference(Array(take[channel][from..<stop]), Array(offline[channel][(offset + from - start)..<(offset + stop - start)])),
                             "\(name), from \(from - start) to \(stop - start)")
            }
            guard stop < end else { break }
            let next = offset + lost
            if next + stop - start + 2 < offline[0].count, (0..<3).allSatisfy({ offline[0][next + stop - start + $0] == take[0][stop + $0] }) { offset = next }
            from = stop
        }
        print("live session: \(end - start) frames equal to the render, \(losses.count) cycle(s) lost to xruns")
    }
}
