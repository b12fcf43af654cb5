import Foundation
import TestSupport
import XCTest

/// Light through a real dummy jackd: the led port is a CV port, and its strobe is delayed by
/// exactly the playback latency the audio path reports, so light and sound land together.
final class LightLiveTests: LiveClientTestCase {
    override class var needsOwnServer: Bool { true }  // makes it freewheel

    func testStrobeWaitsForTheAudioPlaybackLatency() throws {
        let server = try self.server
        // The audio input declares 2,048 frames of playback latency after it (a speaker chain);
        // the light input none.
        let rec = try JackRecorder(server: server.name, channels: 2, seconds: 2, name: "chain", playbackLatencies: [2048, 0])
        let client = try startClient(["--arm-strobe", "--mode", "isochronic", "--beat", "10", "--set", "/led/edge=0",
                                      "--set", "/led/duty=0.5", "--set", "/entrain/edge=0.01"], recorder: rec)
        try rec.connect(["entrain:entrainment_L", "entrain:led"])
        usleep(1_200_000)  // let the graph's latency settle, and the light's delay glide to it
        let take = try rec.record()
        stopClient(client)
        XCTAssertTrue(client.result().error.contains("STROBE ARMED"), "arming logs the photosensitivity warning")

        func rises(_ x: [Float], threshold: Float, quiet: Int) -> [Int] {
            var out: [Int] = [], silent = 0
            for (i, v) in x.enumerated() {
                if abs(v) > threshold { if silent >= quiet { out.append(i) }; silent = 0 } else { silent += 1 }
            }
            return out
        }
        let sound = rises(take[0], threshold: 1e-4, quiet: 1000)
        let light = rises(take[1], threshold: 0.5, quiet: 1000)
        XCTAssertGreaterThanOrEqual(sound.count, 15)
        XCTAssertGreaterThanOrEqual(light.count, 15)
        // Pair each light onset with the sound onset before it: 2,048 frames apart, every time.
        // (A cycle an xrun cost the take between the two shortens the distance, unless the client
        // lost it too: the nearer of the two counts. A cycle lost just before either onset moves
        // where it is seen, into its ramp or after it, so that pair is not judged: it read 1,975
        // once in a clean clone's run.)
        let timeline = rec.timeline
        func lostJustBefore(_ onset: Int) -> Bool { timeline.framesLost(from: onset - 128, to: onset) > 0 }
        var offsets: [Int] = []
        for l in light {
            guard let s = sound.last(where: { $0 <= l }), !lostJustBefore(s), !lostJustBefore(l) else { continue }
            let lost = timeline.framesLost(from: s, to: l)
            offsets.append(abs(l - s + lost - 2048) < abs(l - s - 2048) ? l - s + lost : l - s)
        }
        XCTAssertGreaterThanOrEqual(offsets.count, 10, "pairs of onsets with no cycle lost just before either")
        for offset in offsets { XCTAssertEqual(offset, 2048, accuracy: 2, "light after sound, frames") }
    }

    /// While JACK freewheels (a faster-than-real-time export), light and haptics are dark; they
    /// come back when it stops.
    func testFreewheelingDarkensLightAndHaptics() throws {
        let server = try self.server
        let rec = try JackRecorder(server: server.name, channels: 2, seconds: 0.5, name: "fw")
        let client = try startClient(["--set", "/led/source/manual=1", "--set", "/led/manual=0.7",
                                      "--set", "/haptic/source/manual=1", "--set", "/haptic/intensity=1"], recorder: rec)
        try rec.connect(["entrain:led", "entrain:haptic"])
        try rec.waitForSound()
        let before = try rec.record()
        XCTAssertEqual(before[0].last!, 0.7, accuracy: 1e-6)
        XCTAssertTrue(rec.freewheel(true), "the server refused to freewheel")
        usleep(300_000)
        let during = try rec.record(timeout: 30)
        XCTAssertTrue(rec.freewheel(false))
        try waitFor("the light to come back") { abs(rec.level - 0.7) < 1e-6 }
        let after = try rec.record()
        stopClient(client)
        XCTAssertEqual(during[0].max(), 0, "LED dark while freewheeling")
        XCTAssertEqual(during[1].map(abs).max(), 0, "haptic silent while freewheeling")
        XCTAssertEqual(after[0].last!, 0.7, accuracy: 1e-6, "back after freewheeling")
    }

    /// When a timer runs out the sound fades and stops; an armed strobe and the haptic drive
    /// end with it (they kept going: LED mean 0.48, haptic 0.45 with the audio at 0).
    func testLightAndHapticsGoDarkWithTheSoundWhenATimerEnds() throws {
        let server = try self.server
        let rec = try JackRecorder(server: server.name, channels: 3, seconds: 2.5, name: "end")
        let (client, _, osc) = try startWithOSC(["--arm-strobe", "--beat", "10", "--fade-out", "0.2", "--set", "/haptic/source/entrainment=1"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L", "entrain:led", "entrain:haptic"])
        osc.send("/timer/minutes", [.float(0.01)])  // the fade ends 0.6 s from now
        let take = try rec.record()
        func lastAbove(_ x: [Float], _ threshold: Float) -> Int? { x.lastIndex { abs($0) > threshold } }
        let rate = rec.sampleRate
        guard let sound = lastAbove(take[0], 1e-5), let light = lastAbove(take[1], 1e-4), let touch = lastAbove(take[2], 1e-4) else {
            return XCTFail("nothing played before the timer ended")
        }
        XCTAssertLessThan(Double(sound) / rate, 2.0, "the sound stopped within the take")
        XCTAssertGreaterThan(Measure.rms(take[1][..<(sound - Int(0.25 * rate))]), 0.1, "the strobe flashed before the stop")
        // Dark with the sound (the strobe's own dark half-beat may end it a little earlier).
        for (name, last) in [("LED", light), ("haptic", touch)] {
            XCTAssertLessThanOrEqual(last, sound + 48, "\(name) after the sound ended, frames")
            XCTAssertGreaterThan(last, sound - Int(0.2 * rate), "\(name) went dark before the fade began")
        }
    }

    /// With the default settings the haptic port is silent from the first period (it drove
    /// 45 Hz at −7 dBFS), like the LED: nothing touches the body until a source is chosen.
    func testHapticSilentAtStartUntilASourceIsChosen() throws {
        let server = try self.server
        let rec = try JackRecorder(server: server.name, channels: 2, seconds: 0.5, name: "quiet")
        let (client, _, osc) = try startWithOSC(["--beat", "6"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:haptic", "entrain:entrainment_L"])
        let before = try rec.record()
        XCTAssertGreaterThan(Measure.peak(before[1]), 0.01, "the sound plays")
        XCTAssertEqual(Measure.peak(before[0]), 0, "the haptic port is silent with the defaults")
        osc.send("/haptic/source", [.string("entrainment")])
        _ = try rec.record()  // the change lands within this take
        XCTAssertGreaterThan(Measure.peak(try rec.record()[0]), 0.1, "a source chosen drives it")
    }

    /// `/haptic/pattern s NAME` as a plain message from liblo's oscsend (the README's example),
    /// once the client has run longer than the pattern: it plays (it was timed from engine frame
    /// 0 and so had already ended).
    func testPatternSentAsAPlainMessagePlaysAfterTheClientHasRun() throws {
        let folder = try TemporaryFolder("patterns")
        try Data(Self.shortPattern.utf8).write(to: folder.url.appendingPathComponent("short.ahap"))
        let rec = try JackRecorder(server: try server.name, channels: 1, seconds: 0.6, name: "pattern")
        let (client, port, _) = try startWithOSC(["--patterns-dir", folder.url.path], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:haptic"])
        XCTAssertEqual(Measure.peak(try rec.record()[0]), 0, "silent before")  // and the client has run longer than 0.3 s
        let take = try record(rec) {  // the take starts as oscsend does
            let send = Process()
            send.executableURL = URL(fileURLWithPath: "/usr/bin/oscsend")
            send.arguments = ["localhost", "\(port)", "/haptic/pattern", "s", "short"]
            try send.run()
            send.waitUntilExit()
        }
        let lit = take.indices.filter { abs(take[$0]) > 0.05 }
        XCTAssertGreaterThan(Measure.peak(take), 0.3, "the pattern played")
        if let first = lit.first, let last = lit.last, first > 0 {
            XCTAssertEqual(Double(last - first) / rec.sampleRate, 0.3, accuracy: 0.02, "all 0.3 s of it")
        }
    }

    static let shortPattern = """
    { "Version": 1.0, "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.3,
      "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1 }, { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 } ] } } ] }
    """
}
