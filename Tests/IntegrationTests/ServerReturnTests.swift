import CJack
import EntrainControl
import Foundation
import TestSupport
import XCTest

/// A live rig survives its JACK server: killed and started again under the same name, the
/// client comes back with its ports, metadata, connections and sound, and OSC answers throughout.
final class ServerReturnTests: XCTestCase {
    func testAServerKilledAndStartedAgainGetsTheClientBackAsItWas() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        var probe: JackRecorder?  // dropped when the server dies, as a client would be
        let (client, osc) = try launch(["--carrier", "300"], on: server, probe: &probe)
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        // Set before the fault: must still play after it.
        osc.send("/entrain/carrier", [.float(321)])
        XCTAssertTrue(waitUntil(timeout: 5) { osc.request("/entrain/carrier")?.arguments.first == .float(321) })
        try probe!.connect(["entrain:entrainment_L"])
        XCTAssertEqual(jack_connect(probe!.client, "entrain:ambient_R", "system:playback_2"), 0)
        try waitForConnectionsKept(osc, probe!)

        server.crash()
        probe = nil
        try waitFor("the status to say the server is gone") { osc.request("/status")?.arguments[safe: 10] == .string("gone") }
        XCTAssertNotNil(osc.request("/ping", reply: "/pong"), "OSC answers with the server away")
        osc.send("/entrain/beat", [.float(7)])
        XCTAssertTrue(waitUntil(timeout: 5) { osc.request("/entrain/beat")?.arguments.first == .float(7) }, "values change while the server is away")
        XCTAssertTrue(client.process.isRunning)

        let restarted = Date()
        try server.restart()
        let back = try JackRecorder(server: server.name, channels: 1, seconds: 1, name: "probe")
        try back.waitForPort("entrain:haptic", timeout: 10)
        let returnTime = Date().timeIntervalSince(restarted)
        print("server return: the client's ports were back \(String(format: "%.2f", returnTime)) s after the server was ready")
        try waitFor("the connections to be restored") {
            back.connections(of: "entrain:entrainment_L") == ["probe:in_1"] && back.connections(of: "entrain:ambient_R") == ["system:playback_2"]
        }
        XCTAssertEqual(back.connections(of: "entrain:ambient_L"), [], "nothing connected that was not")
        // The ports' properties are set after the ports are registered: wait for the last of them.
        _ = waitUntil(timeout: 5) { back.property(JACK_METADATA_PRETTY_NAME, ofPort: "entrain:beat_in") != nil }
        XCTAssertEqual(back.property(JACK_METADATA_PORT_GROUP, ofPort: "entrain:entrainment_R"), "entrainment")
        XCTAssertEqual(back.property(JACK_METADATA_SIGNAL_TYPE, ofPort: "entrain:led"), "CV")
        XCTAssertNotNil(back.property(JACK_METADATA_PRETTY_NAME, ofPort: "entrain:beat_in"))
        try back.waitForSound()
        let take = try back.record()[0]
        XCTAssertEqual(Spectrum(take, sampleRate: 48_000).peak(from: 200, to: 400).frequency, 321, accuracy: 1,
                       "the carrier set before the fault plays after it")
        let status = osc.request("/status")
        XCTAssertEqual(status?.arguments[safe: 10], .string("up"))
        XCTAssertEqual(status?.arguments[safe: 12], .int32(1), "one return counted")
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertTrue(client.result().error.contains("JACK server is back"), client.result().error)
    }

    /// midi_out and midi_in are registered apart from the audio and CV ports; their connections
    /// come back too, to far ends that return after us (retried until they exist), and the
    /// clock flows again.
    func testTheMIDIPortsGetTheirConnectionsBackAfterTheServerReturns() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        var probe: JackRecorder?  // dropped when the server dies, as a client would be
        let (client, osc) = try launch(["--midi-clock", "--midi-in"], on: server, probe: &probe)
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        var recorder: JackMIDIRecorder? = try JackMIDIRecorder(server: server.name)
        var keys: JackMIDISender? = try JackMIDISender(server: server.name)
        try recorder!.connect(from: "entrain:midi_out")
        try keys!.connect(to: "entrain:midi_in")
        try waitFor("clocks before the fault") { recorder!.events.contains { $0.bytes == [0xF8] } }
        try waitForConnectionsKept(osc, probe!)

        server.crash()
        (probe, recorder, keys) = (nil, nil, nil)
        try waitFor("the status to say the server is gone") { osc.request("/status")?.arguments[safe: 10] == .string("gone") }
        try server.restart()
        let back = try JackRecorder(server: server.name, channels: 1, seconds: 0.1, name: "probe")
        try back.waitForPort("entrain:midi_out", timeout: 10)
        usleep(500_000)  // the far ends come back after us: their connections wait for them
        let midi = try JackMIDIRecorder(server: server.name)
        let sender = try JackMIDISender(server: server.name)
        try waitFor("the MIDI connections to be restored") {
            back.connections(of: "entrain:midi_out") == ["\(midi.name):in"] && back.connections(of: "entrain:midi_in") == ["\(sender.name):out"]
        }
        try waitFor("the clock to flow again") { midi.events.filter { $0.bytes == [0xF8] }.count >= 24 }
        sender.send(0x90, 60, 127)
        try waitFor("a note on midi_in to set /led/manual") {
            if case .float(let v) = osc.request("/led/manual")?.arguments.first { return v == 1 }
            return false
        }
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
        XCTAssertEqual(client.result().status, 0, client.result().error)
    }

    /// `entrain run` with `arguments` on `server`, up, with OSC answering, and a probe client there.
    func launch(_ arguments: [String], on server: JackTestServer, probe: inout JackRecorder?) throws -> (EntrainBinary.Launched, OSCTestClient) {
        let port = LiveClientTestCase.freePort()
        probe = try JackRecorder(server: server.name, channels: 1, seconds: 0.1, name: "probe")
        let client = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--osc-port", "\(port)", "--fade-in", "0.05",
                                               "--fade-out", "0.2"] + arguments, environment: server.environment)
        do {
            try probe!.waitForPort("entrain:haptic")
        } catch {
            client.signal(SIGKILL, waitUpTo: 2)
            throw error
        }
        let osc = try OSCTestClient(targetPort: port)
        try waitForAnswer(osc)
        return (client, osc)
    }

    func waitForAnswer(_ osc: OSCTestClient) throws {
        try waitFor("OSC to answer") { osc.request("/ping", reply: "/pong", timeout: 0.2) != nil }
    }

    /// Until the client remembers (for the server's return) every connection its ports have now:
    /// /status's count against the graph as the probe sees it.
    func waitForConnectionsKept(_ osc: OSCTestClient, _ probe: JackRecorder) throws {
        let wanted = probe.connectionCount(ofClient: "entrain")
        try waitFor("the client to remember its \(wanted) connections") {
            osc.request("/status")?.arguments[safe: 14] == .int32(Int32(wanted))
        }
    }
}
