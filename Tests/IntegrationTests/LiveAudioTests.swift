import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// What the live client plays, recorded through a real JACK graph.
final class LiveAudioTests: LiveClientTestCase {
    func testRecordingContainsTheExpectedFrequencies() throws {
        let rec = try recorder(seconds: 4)
        let client = try startClient(["--carrier", "300", "--beat", "7"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        // A cycle the take lost breaks the sines' phase and moves the spectrum's peak (as it did
        // the ambient chord tone's by 0.4 Hz once): such a take is recorded again.
        try judgeThroughXruns("carrier and beat frequencies") {
            let (take, xruns) = try rec.recordCountingXruns()
            let left = Array(take[0][48_000...]), right = Array(take[1][48_000...])
            XCTAssertEqual(Measure.peak(left), 0.5, accuracy: 0.01, "default volume 0.5")
            let heard = (Spectrum(left, sampleRate: 48_000).peak(from: 250, to: 350).frequency,
                         Spectrum(right, sampleRate: 48_000).peak(from: 250, to: 350).frequency)
            let miss = abs(heard.0 - 300) > 0.05 || abs(heard.1 - 307) > 0.05
            return (miss ? "peaks at \(heard.0) and \(heard.1) Hz, not 300 and 307 (± 0.05)" : nil, xruns)
        }
    }

    /// The live client and `entrain render` run the same engine: with the same settings their
    /// outputs are identical, sample for sample, wherever the recording catches the live run.
    func testLiveOutputEqualsOfflineRender() throws {
        let settings = ["--carrier", "220", "--beat", "6", "--noise", "pink", "--noise-level", "0.3",
                        "--waveform", "triangle", "--fade-in", "1.5", "--fade-out", "5"]
        let rec = try recorder(seconds: 3)
        let client = try startClient(settings, recorder: rec)
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        let take = try rec.record()
        stopClient(client, within: 8)

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: out) }
        let render = try EntrainBinary.run(["render", "--duration", "20", "--out", out.path] + settings)
        XCTAssertEqual(render.status, 0, render.error)
        let offline = try WAVFile(contentsOf: out).samples

        // The recording starts wherever the connection took effect: find that frame in the render.
        guard let start = Measure.firstSoundOnEveryChannel(take) else { return XCTFail("recorded only silence") }
        XCTAssertGreaterThan(take[0].count - start, 96_000, "at least 2 s to compare")
        // (Where no xrun touched the take: a cycle the client missed leaves stale samples there,
        // one the recording lost leaves a gap; the render is found again after each.)
        XCTAssertNil(rec.firstDifference(take, from: start, count: take[0].count, render: offline))
    }

    /// Ctrl-C fades out (no click) and the process exits 0.
    func testInterruptFadesOutWithoutAClick() throws {
        let rec = try recorder(seconds: 2.5)
        let client = try startClient(["--fade-out", "1", "--volume", "0.8"], recorder: rec)
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        try rec.waitForSound(above: 0.3)
        let started = Date()
        kill(client.process.processIdentifier, SIGINT)
        let take = try rec.record()
        XCTAssertTrue(client.signal(0, waitUpTo: 5))
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "exits soon after the fade")
        // Playing at first, silent at the end, and never a step bigger than the 200 Hz tone makes
        // (where no xrun left stale samples in the take).
        XCTAssertGreaterThan(Measure.peak(take[0][0..<4800]), 0.3)
        XCTAssertLessThan(Measure.largestJump(take[0], from: 0, within: rec.untouchedStretches),
                          Float(0.8 * 2 * Double.pi * 200 / 48_000 * 1.05))
        let silentTail = take[0].suffix(24_000)
        XCTAssertEqual(Measure.peak(silentTail[...]), 0)
    }
}
