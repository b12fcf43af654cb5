import EntrainControl
import EntrainCore
import EntrainEngine
import EntrainJACK
import Foundation
import Logging
import TestSupport
import XCTest

/// The live control loop, driven directly on a real JACK server (in process, as `entrain run`
/// drives it): feeding time-tagged commands, re-preparing the engine for the server's rate, the
/// stop policy, and saving the settings.
final class LiveControlLoopTests: LiveClientTestCase {
    final class Saved: @unchecked Sendable { var values: ParameterValues? }

    func makeLoop(_ client: JackClient, _ current: CurrentEngine, saved: Saved,
                  transport: SessionTransport? = nil) -> LiveControlLoop {
        let transport = transport ?? SessionTransport(engine: current, directories: [])
        return LiveControlLoop(current: current, backend: client, transport: transport, conductor: nil, meter: PeakMeter(),
                               policy: .init(), logger: Logger(label: "test"), strobeWarning: "warning",
                               prepare: { rate, values in try EngineHost(sampleRate: rate, values: values) },
                               saveSettings: { saved.values = current.host.values })
    }

    /// An engine prepared for another rate than the server's (as after a rate change) is
    /// replaced by one at the server's rate with the same values, and a panic in force stays.
    func testTheEngineIsRepreparedForTheServersRateKeepingValuesAndPanic() throws {
        let server = try self.server
        let client = try JackClient(options: .init(name: "loop", server: server.name), logger: Logger(label: "test"))
        defer { client.close() }
        let old = try TestEngine.host(["/entrain/carrier": "300", "/entrain/volume": "0.5"], sampleRate: 44_100)
        old.panic()
        let current = CurrentEngine(old)
        try client.activate(host: old)
        let saved = Saved()
        let loop = makeLoop(client, current, saved: saved)
        XCTAssertNil(try loop.tick())
        XCTAssertEqual(current.host.sampleRate, 48_000)
        XCTAssertEqual(try current.host.value(of: "/entrain/carrier"), 300)
        XCTAssertTrue(current.host.isPanicked, "the panic outlives the engine it was sent to")
        let rec = try recorder(seconds: 0.5)
        try rec.connect(["loop:entrainment_L"])
        XCTAssertEqual(Measure.peak(try rec.record()[0]), 0, "still silent")
        try current.host.resume()
        try rec.waitForSound()
        let back = try rec.record()[0]
        XCTAssertEqual(Spectrum(back, sampleRate: 48_000).peak(from: 200, to: 400).frequency, 300, accuracy: 1)
    }

    /// A change time-tagged a second ahead (beyond the engine's feed horizon) reaches the engine
    /// through the loop's ticks; a stop fades out and ends the run; the settings are saved once.
    func testTicksFeedScheduledChangesAndAStopEndsTheRun() throws {
        let server = try self.server
        let client = try JackClient(options: .init(name: "loop2", server: server.name), logger: Logger(label: "test"))
        defer { client.close() }
        let host = try TestEngine.host(["/entrain/carrier": "300", "/entrain/volume": "0.5", "/master/fade-out": "0.2"])
        let current = CurrentEngine(host)
        try client.activate(host: host)
        let saved = Saved()
        let loop = makeLoop(client, current, saved: saved)
        try waitFor("the engine to run") { host.frame > 0 }
        try host.change("/entrain/carrier", 450, glide: 0, at: host.frame + 48_000)
        XCTAssertEqual(host.scheduledCount, 1)
        let rec = try recorder(seconds: 0.5)
        try rec.connect(["loop2:entrainment_L"])
        for _ in 0..<75 {  // 1.5 s of 20 ms ticks
            XCTAssertNil(try loop.tick())
            usleep(20_000)
        }
        XCTAssertEqual(host.scheduledCount, 0)
        XCTAssertEqual(Spectrum(try rec.record()[0], sampleRate: 48_000).peak(from: 200, to: 600).frequency, 450, accuracy: 1)

        loop.requestStop()
        var ending: LiveControlLoop.Ending?
        let deadline = Date().addingTimeInterval(3)
        while ending == nil && Date() < deadline {
            usleep(20_000)
            ending = try loop.tick()
        }
        XCTAssertEqual(ending, .stopped)
        XCTAssertTrue(host.isStopped, "ended after the fade-out reached silence")
        loop.finish()
        XCTAssertEqual(saved.values, host.values)
    }

    /// A change refused when its stage comes (here an output the rig lacks, in a program that
    /// skipped the check at load) is said once and lost; the run and the session go on, and the
    /// next stage lands.
    func testAChangeRefusedWhenItsStageComesDoesNotEndTheRun() throws {
        let server = try self.server
        let client = try JackClient(options: .init(name: "loop3", server: server.name), logger: Logger(label: "test"))
        defer { client.close() }
        let host = try TestEngine.host(["/entrain/volume": "0.5"])
        let current = CurrentEngine(host)
        try client.activate(host: host)
        let transport = SessionTransport(engine: current, directories: [])
        let loop = makeLoop(client, current, saved: Saved(), transport: transport)
        let text = """
            { "name": "refused", "stages": [
                { "duration": 1.5, "voices": [ { "carrier": 200, "beat": 4 } ] },
                { "duration": 0.2, "voices": [ { "carrier": 250, "beat": 4 } ], "set": { "/pixels/strip/palette": "ice" } },
                { "duration": 5, "voices": [ { "carrier": 300, "beat": 4 } ] } ] }
            """
        let session = try SessionDecoder.decode(text, file: "refused.json").session
        transport.load(SessionProgram(session, sampleRate: host.sampleRate))
        try waitFor("the engine to run") { host.frame > 0 }
        try transport.play()
        // Ticking as the run loop does, sending a second ahead: the refused stage 2 (at 1.5 s)
        // is passed, and stage 3 (at 1.7 s) is sent. Before the fix the refusal ended the run.
        try waitFor("stage 3's carrier", timeout: 10) {
            XCTAssertNil(try loop.tick())
            return try host.value(of: "/entrain/carrier") == 300
        }
        XCTAssertEqual(transport.state, .playing, "the session goes on")
    }
}

