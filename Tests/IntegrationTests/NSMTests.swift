import EntrainControl
import Foundation
import TestSupport
import XCTest

/// entrain under a session manager, end to end against a small NSM server written from the
/// protocol: announce, open (JACK only after it), save writes the state under the path, a new
/// run opened on the same path restores it — values, the session's place, the DMX and MIDI rig
/// the plugin chain and the pixel rig, with no arguments as a manager starts it — and SIGTERM ends it.
final class NSMTests: LiveClientTestCase {
    func testTheNSMExchangeEndToEnd() throws {
        let server = try self.server
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-nsm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sessionFile = folder.appendingPathComponent("long.json")
        try Data(#"{"format": "entrain-session/1", "name": "long", "stages": [{"name": "one", "duration": "10:00", "volume": 0.5, "voices": [{"mode": "binaural", "carrier": 250, "beat": 6, "level": 1}]}]}"#.utf8)
            .write(to: sessionFile)
        let path = folder.appendingPathComponent("entrain.nABCD").path
        let probe = try JackRecorder(server: server.name, channels: 1, seconds: 1, name: "nsmprobe")

        // First run: a new client in the session.
        let nsm = try NSMTestServer()
        let port = freePort()
        let dmx = try DMXTestReceiver(.artNet)
        defer { dmx.stop() }
        let display = try DDPTestReceiver()
        defer { display.stop() }
        let pixelRig = folder.appendingPathComponent("rig.json")
        try Data(#"[{"name": "strip", "pixels": 10, "protocol": "ddp", "target": "127.0.0.1:\#(display.port)"}]"#.utf8).write(to: pixelRig)
        let rig = ["--artnet", "127.0.0.1:\(dmx.port)", "--dmx-map", "1=led", "--midi-clock", "--midi-in",
                   "--insert", "entrainment:http://plugin.org.uk/swh-plugins/amp", "--pixels", pixelRig.path]
        let first = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--autoconnect", "--osc-port", "\(port)",
                                              "--session", sessionFile.path, "--fade-out", "0.2"] + rig,
                                             environment: server.environment.merging(["NSM_URL": nsm.url]) { $1 })
        defer { if first.process.isRunning { first.signal(SIGKILL, waitUpTo: 2) } }
        let announce = try XCTUnwrap(nsm.wait(for: "/nsm/server/announce"), first.result().error)
        let arguments = announce.message.arguments
        XCTAssertEqual(arguments.count, 6)
        XCTAssertEqual(arguments[safe: 0], .string("entrain"))
        guard case .string(let capabilities)? = arguments[safe: 1] else { return XCTFail("no capabilities") }
        XCTAssertTrue(capabilities.hasPrefix(":") && capabilities.hasSuffix(":") && capabilities.contains(":dirty:"), capabilities)
        XCTAssertEqual(arguments[safe: 3], .int32(1), "API major version")
        XCTAssertEqual(arguments[safe: 5], .int32(first.process.processIdentifier))
        usleep(500_000)
        XCTAssertTrue(probe.ports(ofClient: "entrain").isEmpty && probe.ports(ofClient: "entrain.nABCD").isEmpty,
                      "nothing registered with JACK before the session opens")

        nsm.acceptAnnounce()
        nsm.open(path: path, displayName: "entrain", clientID: "entrain.nABCD")
        XCTAssertNotNil(nsm.wait(for: "/reply"), "open answered")
        XCTAssertEqual(nsm.replies(to: "/nsm/client/open").first?.arguments.count, 2)
        try probe.waitForPort("entrain.nABCD:haptic")
        XCTAssertEqual(probe.connections(of: "entrain.nABCD:entrainment_L"), [], "--autoconnect is ignored under NSM")
        let osc = try OSCTestClient(targetPort: port)
        try waitFor("OSC") { osc.request("/ping", reply: "/pong", timeout: 0.2) != nil }
        osc.send("/haptic/intensity", [.float(0.4)])
        osc.send("/fx/entrainment/1/gain", [.float(-6)])
        osc.send("/ambient/reverbLevel", [.float(0.25)])
        osc.send("/midi/map", [.string(Self.pads)])
        osc.send("/pixels/strip/palette", [.string("fire")])
        XCTAssertNotNil(nsm.wait(for: "/nsm/client/is_dirty"), "a change makes it dirty")
        try waitFor("the session to play past 0.6 s") {
            guard case .float(let position)? = osc.request("/session/status", reply: "/session/position")?.arguments.first else { return false }
            return position > 0.6
        }
        nsm.save()
        XCTAssertNotNil(nsm.wait(for: "/nsm/client/is_clean"), "clean after the save")
        XCTAssertEqual(nsm.replies(to: "/nsm/client/save").first?.address, "/reply", first.result().error)
        let values = try String(contentsOfFile: path + "/values.json", encoding: .utf8)
        XCTAssertTrue(values.contains(#""/haptic/intensity": 0.4"#), values)
        XCTAssertTrue(values.contains(#""/ambient/reverbLevel": 0.25"#), values)
        XCTAssertTrue(values.contains("/fx/entrainment/chain") && values.contains("gain=-6"), values)
        XCTAssertTrue(values.contains(Self.pads), "the MIDI bindings saved: \(values)")
        let state = try JSONDecoder().decode(NSMState.self, from: Data(contentsOf: URL(fileURLWithPath: path + "/state.json")))
        XCTAssertEqual(state.session?.file, sessionFile.path)
        XCTAssertEqual(state.session?.state, "playing")
        let savedPosition = try XCTUnwrap(state.session?.position)
        XCTAssertGreaterThan(savedPosition, 0.5)
        XCTAssertEqual(state.dmx?.prefix(2), ["--artnet", "127.0.0.1:\(dmx.port)"])
        XCTAssertEqual(state.midi?.first, "--midi-clock")
        XCTAssertEqual(state.pixels, pixelRig.standardizedFileURL.path, "the pixel rig, as an absolute path")
        XCTAssertTrue(values.contains(#""/pixels/strip/palette": "fire""#), values)
        XCTAssertEqual(Set(nsm.log.map(\.port)).count, 1, "every message from the announce's socket")
        XCTAssertTrue(first.signal(SIGTERM, waitUpTo: 5), "SIGTERM ends it")
        XCTAssertEqual(first.result().status, 0, first.result().error)

        // Second run, opened on the same path: the state comes back.
        let again = try NSMTestServer()
        let port2 = freePort()
        let second = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--osc-port", "\(port2)", "--fade-out", "0.2"],
                                              environment: server.environment.merging(["NSM_URL": again.url]) { $1 })
        defer { if second.process.isRunning { second.signal(SIGKILL, waitUpTo: 2) } }
        XCTAssertNotNil(again.wait(for: "/nsm/server/announce"))
        again.acceptAnnounce()
        again.open(path: path, displayName: "entrain", clientID: "entrain.nABCD")
        XCTAssertNotNil(again.wait(for: "/reply"))
        try probe.waitForPort("entrain.nABCD:haptic")
        let osc2 = try OSCTestClient(targetPort: port2)
        try waitFor("OSC") { osc2.request("/ping", reply: "/pong", timeout: 0.2) != nil }
        XCTAssertEqual(osc2.request("/haptic/intensity")?.arguments.first, .float(0.4))
        XCTAssertEqual(osc2.request("/ambient/reverbLevel")?.arguments.first, .float(0.25))
        XCTAssertEqual(osc2.request("/fx/entrainment/1/gain")?.arguments.first?.number, -6, "the plugin chain is back")
        XCTAssertTrue(probe.ports(ofClient: "entrain.nABCD").map(\.name).contains("midi_out"), "MIDI clock is back")
        XCTAssertTrue(probe.ports(ofClient: "entrain.nABCD").map(\.name).contains("midi_in"), "MIDI in is back")
        XCTAssertEqual(osc2.request("/midi/map")?.arguments.first, .string(Self.pads), "and its bindings")
        let framesBefore = dmx.received.frames.count
        XCTAssertTrue(dmx.wait { $0.count - framesBefore > 10 }, "DMX goes out again to the saved node")
        XCTAssertEqual(osc2.request("/pixels/strip/palette")?.arguments.first, .string("fire"), "the pixel rig is back, with its settings")
        let pixelFramesBefore = display.received.frames.count
        XCTAssertTrue(display.wait { $0.count - pixelFramesBefore > 10 }, "pixel frames go out again to the saved strip")
        XCTAssertEqual(osc2.request("/session/status", reply: "/session/state")?.arguments.first, .string("playing"))
        guard case .float(let position)? = osc2.request("/session/status", reply: "/session/position")?.arguments.first else {
            return XCTFail("no position")
        }
        XCTAssertGreaterThanOrEqual(Double(position), savedPosition - 0.1, "the session goes on from where it was saved")
        try probe.connect(["entrain.nABCD:entrainment_L"])
        try probe.waitForSound()
        let take = try probe.record()[0]
        XCTAssertEqual(Spectrum(take, sampleRate: 48_000).peak(from: 200, to: 300).frequency, 250, accuracy: 2, "the session plays")
        XCTAssertTrue(second.signal(SIGTERM, waitUpTo: 5))
        XCTAssertEqual(second.result().status, 0, second.result().error)
    }

    /// A saved rig that no longer reads (its pixel rig file deleted since the save) is the
    /// open's answer: `/error` with the reason, nothing registered with JACK, and the run ends.
    func testASavedRigThatDoesNotReadIsTheOpensError() throws {
        let server = try self.server
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-nsm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("entrain.nWXYZ")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        let gone = folder.appendingPathComponent("rig.json").path
        try JSONEncoder().encode(NSMState(pixels: gone)).write(to: path.appendingPathComponent("state.json"))
        let probe = try JackRecorder(server: server.name, channels: 1, seconds: 0.1, name: "nsmprobe2")
        let nsm = try NSMTestServer()
        let client = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--osc-port", "\(freePort())"],
                                              environment: server.environment.merging(["NSM_URL": nsm.url]) { $1 })
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        XCTAssertNotNil(nsm.wait(for: "/nsm/server/announce"), client.result().error)
        nsm.acceptAnnounce()
        nsm.open(path: path.path, displayName: "entrain", clientID: "entrain.nWXYZ")
        let answer = try XCTUnwrap(nsm.wait(for: "/error"), "no /error: \(client.result().error)")
        XCTAssertEqual(answer.message.arguments.first, .string("/nsm/client/open"))
        guard case .string(let why)? = answer.message.arguments.last else { return XCTFail("no reason") }
        XCTAssertTrue(why.contains(gone), why)
        try waitFor("the run to end") { !client.process.isRunning }
        XCTAssertNotEqual(client.result().status, 0)
        XCTAssertTrue(probe.ports(ofClient: "entrain.nWXYZ").isEmpty, "nothing registered with JACK")
    }

    /// A foot switch and two drum pads: what the saved session must bring back.
    static let pads = "1:64=/panic,10:note36=/preset/load calm,10:note38=/haptic/pattern heartbeat"
}
