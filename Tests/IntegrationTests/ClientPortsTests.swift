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

        let expected: [(String, Bool)] = [("entrainment_L", true), ("entrainment_R", true), ("ambient_L", true),
                                          ("ambient_R", true), ("beat_in", false), ("mix_L", false), ("mix_R", false),
                                          ("led", true), ("haptic", true)]
        // The client registers its ports one by one: wait for as many as there should be.
        _ = waitUntil(timeout: 10) {
            probe.ports(ofClient: "entrain").count >= expected.count
                && expected.allSatisfy { probe.property(JACK_METADATA_PORT_GROUP, ofPort: "entrain:\($0.0)") != nil }
        }
        let ports = probe.ports(ofClient: "entrain")
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

    /// --led-ports 3 --haptic-cv: led_2, led_3 and the haptic envelope as CV ports, tagged CV,
    /// and led_3 carries the brightness times /led/gain/3.
    func testOptionalLightAndHapticPorts() throws {
        let server = try self.server
        let probe = try JackRecorder(server: server.name, channels: 2, seconds: 0.5, name: "probe")
        let client = try startClient(["--led-ports", "3", "--haptic-cv", "--set", "/led/source/manual=1",
                                      "--set", "/led/manual=0.8", "--set", "/led/gain/3=0.25"], recorder: probe)
        defer { stopClient(client) }
        try probe.waitForPort("entrain:haptic_sharpness")  // registered after the standard ports
        let names = Set(probe.ports(ofClient: "entrain").map(\.name))
        XCTAssertTrue(names.isSuperset(of: ["led", "led_2", "led_3", "haptic_intensity", "haptic_sharpness"]), "\(names)")
        XCTAssertFalse(names.contains("led_4"))
        for name in ["led_2", "led_3", "haptic_intensity", "haptic_sharpness"] {
            XCTAssertEqual(probe.property(JACK_METADATA_SIGNAL_TYPE, ofPort: "entrain:\(name)"), "CV", name)
        }
        try probe.connect(["entrain:led", "entrain:led_3"])
        try probe.waitForSound()
        let take = try probe.record()
        XCTAssertEqual(take[0].last!, 0.8, accuracy: 1e-6)
        XCTAssertEqual(take[1].last!, 0.2, accuracy: 1e-6)
    }

    func testAutoconnectPatchesAudioOutputsToThePhysicalPlaybackPorts() throws {
        let probe = try recorder(seconds: 0.1)
        let client = try startClient(["--autoconnect"], recorder: probe)
        defer { stopClient(client) }
        // The ports exist before the client activates and connects them: wait for the last one.
        waitUntil(timeout: 5) { !probe.connections(of: "entrain:ambient_R").isEmpty }
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
