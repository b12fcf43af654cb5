import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The safety faults a hostile or clumsy sender found, on the real client and a real JACK server.
final class SafetyLiveTests: LiveClientTestCase {
    /// Three bundles of 2,000 commands time-tagged nine years ahead used to fill the engine's
    /// queue, so /panic was refused, the sound played on and Ctrl-C exited 1. Now they wait on
    /// the control side; /panic (a flag, no queue) silences, other commands still work, and the
    /// client stops cleanly.
    func testFutureDatedBundlesCannotLockOutPanic() throws {
        let rec = try recorder(seconds: 1.5)
        let (client, _, osc) = try startWithOSC(["--volume", "0.8", "--fade-in", "0"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        let nineYears = OSCTimetag(unixTime: Date().timeIntervalSince1970 + 9 * 365 * 86_400)
        let flood = [OSCMessage](repeating: OSCMessage("/entrain/beat", [.float(5)]), count: 2_000)
        for _ in 0..<3 { osc.send(bytes: OSCCodec.encodeBundle(flood, timetag: nineYears)) }
        for _ in 0..<500 { osc.send(bytes: OSCCodec.encodeBundle([OSCMessage("/entrain/beat", [.float(5)])], timetag: nineYears)) }
        let errors = osc.receive(timeout: 1).filter { $0.address == "/error" }
        XCTAssertEqual(errors, [], "6,500 commands waiting for their time are accepted")

        osc.send("/entrain/carrier", [.float(300)])
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments, [.float(300)], "commands still go through")
        let playing = try rec.record()
        XCTAssertEqual(Spectrum(playing[0], sampleRate: 48_000).peak(from: 250, to: 350).frequency, 300, accuracy: 0.5)

        osc.send("/panic")
        XCTAssertFalse(osc.receive(timeout: 0.3).contains { $0.address == "/error" }, "/panic is never refused")
        let after = try rec.record()
        XCTAssertEqual(Measure.peak(after[0]), 0, "silence on entrainment_L after /panic")
        XCTAssertEqual(Measure.peak(after[1]), 0, "silence on entrainment_R after /panic")
        XCTAssertEqual(osc.request("/status")?.arguments[8], .int32(1), "/status reports the panic")
    }

    /// The mix is rendered and limited in the engine's own buffers; only limited samples reach a
    /// port buffer. A recording client that is late every few cycles (xruns) keeps reading those
    /// buffers meanwhile, so it sees them while entrain renders the next periods into them: no
    /// sample it sees may exceed the ceiling.
    func testTheCeilingHoldsInWhatAnotherClientReadsAroundXruns() throws {
        let server = try self.server
        let rec = try JackRecorder(server: server.name, channels: 2, seconds: 4, lateEvery: 5,
                                   lateSeconds: 2.5 * Double(server.period) / Double(server.sampleRate))
        // Ten voices and the noise bed at full level: the unlimited mix is about +14 dBFS.
        var loud = ["--volume", "1", "--ceiling=-20", "--noise", "white", "--noise-level", "1", "--fade-in", "0"]
        for voice in 2...10 {
            loud += ["--set", "/entrain/voice/\(voice)/level=1", "--set", "/entrain/voice/\(voice)/carrier=\(100 + 37 * voice)"]
        }
        let client = try startClient(loud, recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        try rec.waitForSound()
        let take = try rec.record()
        let ceiling = Float(pow(10, -20.0 / 20))
        XCTAssertGreaterThan(rec.xruns, 0, "the late client provoked xruns (else this test proves nothing)")
        XCTAssertGreaterThan(Measure.peak(take[0]), ceiling * 0.9, "the limiter is working hard")
        for channel in take { XCTAssertLessThanOrEqual(Measure.peak(channel), ceiling * 1.000_001, "no sample above -20 dBFS") }
        XCTAssertLessThanOrEqual(rec.scannedPeak, ceiling * 1.000_001, "nor in any read of the port buffers while entrain writes them")
    }
}
