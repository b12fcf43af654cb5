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
        // lost it too: the nearer of the two counts.)
        let timeline = rec.timeline
        var offsets: [Int] = []
        for l in light {
            guard let s = sound.last(where: { $0 <= l }) else { continue }
            let lost = timeline.framesLost(from: s, to: l)
            offsets.append(abs(l - s + lost - 2048) < abs(l - s - 2048) ? l - s + lost : l - s)
        }
        XCTAssertFalse(offsets.isEmpty)
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
}
