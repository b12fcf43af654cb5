import CJack
import Foundation
import TestSupport
import XCTest

final class ClientPortsTests: LiveClientTestCase {
    /// Exactly the documented ports, directions and metadata; nothing connected by default.
    func testDocumentedPortsAndMetadata() throws {
        let probe = try recorder(seconds: 0.1)
        let client = try startClient([], recorder: probe)
        defer { stopClient(client) }

        let ports = probe.ports(ofClient: "entrain")
        let expected: [(String, Bool)] = [("entrainment_L", true), ("entrainment_R", true), ("ambient_L", true),
                                          ("ambient_R", true), ("beat_in", false), ("led", true), ("haptic", true)]
        XCTAssertEqual(Set(ports.map(\.name)), Set(expected.map(\.0)))
        for (name, isOutput) in expected {
            guard let port = ports.first(where: { $0.name == name }) else { continue }
            XCTAssertEqual(port.flags & Int32(JackPortIsOutput.rawValue) != 0, isOutput, name)
            XCTAssertEqual(port.flags & Int32(JackPortIsInput.rawValue) != 0, !isOutput, name)
            XCTAssertEqual(port.type, JACK_DEFAULT_AUDIO_TYPE, name)
            let full = "entrain:\(name)"
            XCTAssertNotNil(probe.property(JACK_METADATA_PRETTY_NAME, ofPort: full), "\(name) pretty-name")
            XCTAssertNotNil(probe.property(JACK_METADATA_PORT_GROUP, ofPort: full), "\(name) port-group")
            XCTAssertEqual(probe.property(JACK_METADATA_SIGNAL_TYPE, ofPort: full), name == "led" ? "CV" : nil, name)
            XCTAssertEqual(probe.connections(of: full), [], "\(name) must not be connected without --autoconnect")
        }
        XCTAssertEqual(probe.property(JACK_METADATA_PORT_GROUP, ofPort: "entrain:entrainment_R"), "entrainment")
    }

    func testAutoconnectPatchesAudioOutputsToThePhysicalPlaybackPorts() throws {
        let probe = try recorder(seconds: 0.1)
        let client = try startClient(["--autoconnect"], recorder: probe)
        defer { stopClient(client) }
        usleep(200_000)
        XCTAssertEqual(probe.connections(of: "entrain:entrainment_L"), ["system:playback_1"])
        XCTAssertEqual(probe.connections(of: "entrain:entrainment_R"), ["system:playback_2"])
        XCTAssertEqual(probe.connections(of: "entrain:ambient_R"), ["system:playback_2"])
        XCTAssertEqual(probe.connections(of: "entrain:haptic"), [], "the transducer drive never goes to speakers")
    }

    func testATakenNameGetsASuffix() throws {
        let probe = try recorder(seconds: 0.1)
        let first = try startClient([], recorder: probe)
        defer { stopClient(first) }
        let server = try self.server
        let second = try EntrainBinary.launch(["run", "--quiet", "--osc-port", "0"], environment: server.environment)
        defer { stopClient(second) }
        try probe.waitForPort("entrain-01:haptic")
    }
}
