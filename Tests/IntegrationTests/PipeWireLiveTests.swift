import CJack
import EntrainControl
import Foundation
import TestSupport
import XCTest

/// What differs under PipeWire's JACK (run by scripts/test-pipewire.sh, under pw-jack, on a
/// private headless PipeWire): a daemon killed is noticed although PipeWire's libjack reports it
/// only through jack_on_shutdown (or not at all), and entrain comes back when it is started
/// again; the period is the quantum the graph runs, not the default one reported before
/// activation; without a session manager there is no metadata store, said once.
final class PipeWireLiveTests: XCTestCase {
    /// The server-return tests' launcher and waiting, shared.
    let returns = ServerReturnTests(name: "launcher", testClosure: { _ in })

    override func setUpWithError() throws {
        guard PipeWireDaemon.wanted else {
            throw XCTSkip("PipeWire's JACK only: scripts/test-pipewire.sh runs these under pw-jack (make test does)")
        }
    }

    func testADaemonKilledIsNoticedAndEntrainComesBackWhenItIsStartedAgain() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        var probe: JackRecorder?
        let (client, osc) = try returns.launch(["--carrier", "300"], on: server, probe: &probe)
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        osc.send("/entrain/carrier", [.float(321)])
        try probe!.connect(["entrain:entrainment_L"])
        try returns.waitForConnectionsKept(osc, probe!)

        // What the client said, for a failure below (it may have ended, or be looking still).
        func log() -> String { "running: \(client.process.isRunning); its log:\n" + client.result().error }
        // Four deaths and returns in a row: each return restores the connection while the graph
        // reports latencies, which is where PipeWire's libjack once aborted us (docs/rig.md).
        let rounds = 4
        var back: JackRecorder?
        for round in 1...rounds {
            server.crash()  // kill -9: the daemon says no goodbye
            probe = nil
            back = nil
            let killed = Date()
            try waitFor("the status to say the server is gone") { osc.request("/status")?.arguments[safe: 10] == .string("gone") }
            if round == 1 {
                print("pipewire: the daemon's death was noticed after \(String(format: "%.2f", Date().timeIntervalSince(killed))) s")
                XCTAssertNotNil(osc.request("/ping", reply: "/pong"), "OSC answers with the daemon away")
            }
            try server.restart()
            let probe = try JackRecorder(server: server.name, channels: 1, seconds: 1, name: "probe")
            back = probe
            do {
                try probe.waitForPort("entrain:haptic", timeout: 15)
                try waitFor("the connection to be restored") { probe.connections(of: "entrain:entrainment_L") == ["probe:in_1"] }
                try waitFor("the status to say the server is up") { osc.request("/status")?.arguments[safe: 10] == .string("up") }
            } catch {
                return XCTFail("return \(round): \(error); \(log())")
            }
        }
        let take = try back!.record()[0]
        XCTAssertEqual(Spectrum(take, sampleRate: Double(server.sampleRate)).peak(from: 200, to: 400).frequency, 321, accuracy: 1,
                       "the carrier set before the daemon died plays after it; \(log())")
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertEqual(client.result().error.components(separatedBy: "JACK server is back").count - 1, rounds, client.result().error)
    }

    /// A graph at a 1024 quantum, then forced to 128: the status reports the period the
    /// process callback is given, whatever was reported before activation.
    func testThePeriodIsTheQuantumTheGraphRuns() throws {
        let server = try JackTestServer(period: 1024)
        defer { server.stop() }
        var probe: JackRecorder?
        let (client, osc) = try returns.launch([], on: server, probe: &probe)
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        XCTAssertEqual(jack_set_buffer_size(probe!.client, 128), 0)
        try waitFor("the status to report a 128-frame period") {
            osc.request("/status")?.arguments[safe: 11] == .int32(128)
        }
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
    }

    /// No session manager, no "default" metadata: one notice, not a warning per property.
    func testWithoutASessionManagerTheMissingMetadataIsOneNotice() throws {
        let server = try JackTestServer(metadata: false)
        defer { server.stop() }
        var probe: JackRecorder?
        let (client, _) = try returns.launch(["--midi-clock"], on: server, probe: &probe)
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
        let log = client.result().error
        XCTAssertEqual(client.result().status, 0, log)
        let metadataLines = log.split(separator: "\n").filter { $0.localizedCaseInsensitiveContains("metadata") }
        XCTAssertEqual(metadataLines.count, 1, log)
        XCTAssertTrue(metadataLines.first?.contains("keeps no port metadata") ?? false, log)
    }
}
