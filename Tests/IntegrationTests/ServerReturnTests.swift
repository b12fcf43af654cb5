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
        let port = LiveClientTestCase.freePort()
        var probe: JackRecorder? = try JackRecorder(server: server.name, channels: 1, seconds: 0.1, name: "probe")
        let client = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--osc-port", "\(port)", "--carrier", "300",
                                               "--fade-in", "0.05", "--fade-out", "0.2"], environment: server.environment)
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        try probe!.waitForPort("entrain:haptic")
        let osc = try OSCTestClient(targetPort: port)
        try waitForAnswer(osc)
        // Set before the fault: must still play after it.
        osc.send("/entrain/carrier", [.float(321)])
        usleep(100_000)
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments.first, .float(321))
        try probe!.connect(["entrain:entrainment_L"])
        XCTAssertEqual(jack_connect(probe!.client, "entrain:ambient_R", "system:playback_2"), 0)
        usleep(600_000)  // the client re-reads its connections once they settle

        server.crash()
        probe = nil
        try waitFor("the status to say the server is gone") { osc.request("/status")?.arguments[safe: 10] == .string("gone") }
        XCTAssertNotNil(osc.request("/ping", reply: "/pong"), "OSC answers with the server away")
        osc.send("/entrain/beat", [.float(7)])
        usleep(100_000)
        XCTAssertEqual(osc.request("/entrain/beat")?.arguments.first, .float(7), "values change while the server is away")
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
        XCTAssertEqual(back.property(JACK_METADATA_PORT_GROUP, ofPort: "entrain:entrainment_R"), "entrainment")
        XCTAssertEqual(back.property(JACK_METADATA_SIGNAL_TYPE, ofPort: "entrain:led"), "CV")
        XCTAssertNotNil(back.property(JACK_METADATA_PRETTY_NAME, ofPort: "entrain:beat_in"))
        usleep(300_000)
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

    func waitForAnswer(_ osc: OSCTestClient) throws {
        try waitFor("OSC to answer") { osc.request("/ping", reply: "/pong", timeout: 0.2) != nil }
    }

    func waitFor(_ what: String, timeout: TimeInterval = 15, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { throw TestSupportError.timeout(what) }
            usleep(50_000)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
