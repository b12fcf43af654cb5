import EntrainCore
import EntrainEngine
import TestSupport
import XCTest

/// Panic as a flag no queue can hold back, its exact timing, and commands time-tagged far
/// ahead waiting on the control side instead of in the engine's ring.
final class PanicAndSchedulingTests: XCTestCase {
    /// Light, haptic, and both audio pairs of one block each, frame by frame.
    func renderBlocks(_ renderer: OfflineRenderer, _ blocks: Int, size: Int = 256) -> [ClientPort: [Float]] {
        var out: [ClientPort: [Float]] = [:]
        for _ in 0..<blocks {
            renderer.renderBlock(size) { io in
                for port in [ClientPort.entrainmentL, .led, .haptic] {
                    out[port, default: []] += UnsafeBufferPointer(start: io[port], count: size)
                }
            }
        }
        return out
    }

    /// The documented timing: light and haptics are dark from the first frame of the engine's
    /// next period; the audio fades over 10 ms (480 frames at 48 kHz) and is silent once the
    /// limiter's look-ahead (71 frames) has passed too.
    func testPanicTiming() throws {
        let host = try TestEngine.host(["/entrain/volume": "0.8", "/haptic/source/manual": "1", "/haptic/intensity": "1",
                                        "/led/source/manual": "1", "/led/manual": "1"])
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        let before = renderBlocks(renderer, 40)
        XCTAssertGreaterThan(Measure.peak(before[.led]!), 0.9)
        XCTAssertGreaterThan(Measure.peak(before[.haptic]!), 0.3)
        host.panic()
        let after = renderBlocks(renderer, 8)
        XCTAssertEqual(Measure.peak(after[.led]!), 0, "light dark from the next period's first frame")
        XCTAssertEqual(Measure.peak(after[.haptic]!), 0, "haptic silent from the next period's first frame")
        let audio = after[.entrainmentL]!
        let fade = Int(EngineHost.panicFadeSeconds * 48_000), lookahead = 71
        XCTAssertEqual(fade, 480)
        XCTAssertGreaterThan(Measure.peak(audio[(fade / 2)..<(fade / 2 + 100)]), 0.05, "mid-fade the sound is still fading")
        XCTAssertGreaterThan(Measure.peak(audio[(fade - 60)..<(fade + lookahead - 1)]), 0, "not silent before fade + look-ahead")
        XCTAssertEqual(Measure.peak(audio[(fade + lookahead)...]), 0, "silent from fade + look-ahead on")
        XCTAssertTrue(host.status.pointee.panicked.load(ordering: .relaxed))
    }

    /// Commands time-tagged far ahead wait on the control side: many more than the ring holds
    /// are accepted, the cap is a clear error, and a panic still acts at once.
    func testFarFutureCommandsDoNotFillTheRing() throws {
        let host = try TestEngine.host(["/entrain/volume": "0.8"])
        let nineYears = Int64(9 * 365 * 86_400) * 48_000
        for k in 0..<EngineHost.maximumScheduled {
            try host.change("/entrain/beat", 5, at: nineYears + Int64(k % 7))
        }
        XCTAssertEqual(host.scheduledCount, EngineHost.maximumScheduled)
        XCTAssertThrowsError(try host.change("/entrain/beat", 5, at: nineYears)) { error in
            XCTAssertTrue("\(error)".contains("waiting for their time tags"), "\(error)")
        }
        try host.change("/entrain/carrier", 300)  // an immediate command still goes through
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        let playing = renderBlocks(renderer, 200)[.entrainmentL]!
        XCTAssertEqual(Spectrum(Array(playing[9_600...]), sampleRate: 48_000).peak(from: 250, to: 350).frequency, 300, accuracy: 0.5)
        host.panic()
        XCTAssertEqual(Measure.peak(renderBlocks(renderer, 20)[.entrainmentL]![600...]), 0)
    }

    /// A change time-tagged beyond the feed horizon lands on exactly its frame; one in the past
    /// applies at once.
    func testScheduledChangesLandOnTheirFrame() throws {
        let host = try TestEngine.host(["/entrain/volume": "0"])
        let at: Int64 = 3 * 48_000 + 123  // 3 s: well past the 0.5 s horizon when sent
        try host.change("/entrain/volume", 0.5, glide: 0, at: at)
        XCTAssertEqual(host.scheduledCount, 1, "waits on the control side")
        let (left, _) = TestEngine.render(host, seconds: 3.5)
        // The output is the limiter's look-ahead (71 frames) late; a sine starting at phase 0
        // has its first non-zero sample one frame later.
        let lookahead: ClosedRange<Int64> = 71...72
        XCTAssertTrue(lookahead.contains((left.firstIndex { $0 != 0 }.map(Int64.init) ?? -1) - at), "the first sound is on the tagged frame")

        let late = try TestEngine.host(["/entrain/volume": "0"])
        _ = TestEngine.render(late, seconds: 1)
        try late.change("/entrain/volume", 0.5, glide: 0, at: 100)  // long past
        let (now, _) = TestEngine.render(late, seconds: 0.1)
        XCTAssertTrue(lookahead.contains(Int64(now.firstIndex { $0 != 0 } ?? -1)), "a time tag in the past applies now")
    }

    /// Lowering the ceiling takes hold on the haptic port on the same frame as on the audio
    /// pairs (it used to lag by the haptic's delay line, about 330 frames).
    func testTheHapticFollowsALoweredCeilingOnTheSameFrame() throws {
        let host = try TestEngine.host(["/entrain/volume": "1", "/haptic/source/manual": "1", "/haptic/intensity": "1",
                                        "/haptic/level": "1", "/master/ceiling": "-0.1"])
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        _ = renderBlocks(renderer, 40)
        let at = host.frame + 1000
        try host.change("/master/ceiling", -20, at: at)
        let out = renderBlocks(renderer, 20)
        let ceiling = Float(pow(10, -20.0 / 20)), offset = 1000
        XCTAssertGreaterThan(Measure.peak(out[.haptic]![0..<offset]), 0.8, "full drive before the change")
        XCTAssertLessThanOrEqual(Measure.peak(out[.haptic]![offset...]), ceiling, "haptic under the new ceiling from its frame")
        XCTAssertLessThanOrEqual(Measure.peak(out[.entrainmentL]![offset...]), ceiling, "audio under it from the same frame")
    }

    /// Stop with nothing to play, then resume: the sound comes back (it used to stay stopped).
    func testResumeAfterAStopBringsTheSoundBack() throws {
        let host = try TestEngine.host(["/entrain/volume": "0.8", "/master/fade-out": "0.1", "/master/fade-in": "0.05"])
        _ = TestEngine.render(host, seconds: 0.2)
        try host.stop()
        let (stopped, _) = TestEngine.render(host, seconds: 0.5)
        XCTAssertEqual(Measure.peak(stopped[12_000...]), 0)
        XCTAssertTrue(host.isStopped)
        try host.resume()
        let (back, _) = TestEngine.render(host, seconds: 0.5)
        XCTAssertGreaterThan(Measure.peak(back[12_000...]), 0.7, "resume brings the sound back after a stop")
    }
}
