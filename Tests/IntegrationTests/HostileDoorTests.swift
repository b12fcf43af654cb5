import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The real client against what a hostile or careless file, mapping or peer does: a pipe where a
/// plugin's impulse response or the session file should be, a session or saved settings that
/// would arm the strobe through a mapping, a session manager's orders from someone else, a
/// client id JACK cannot take, and the server's return with a value the user set.
final class HostileDoorTests: LiveClientTestCase {
    static let convolver = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"

    /// Chain text loading the convolver with a state that names `path` as its impulse response.
    func convolverChain(ir path: String) throws -> String {
        let property: [String: Any] = ["key": "http://gareus.org/oss/lv2/zeroconvolv#ir", "type": "http://lv2plug.in/ns/ext/atom#Path",
                                       "flags": 3, "value": Data((path + "\0").utf8).base64EncodedString()]
        return "\(Self.convolver) state=\(try JSONSerialization.data(withJSONObject: [property]).base64EncodedString())"
    }

    /// A plugin state naming a pipe is refused at once (before the plugin's worker could block
    /// in open with the chains' lock held behind it), and the OSC thread answers throughout; a
    /// session file swapped for a pipe before a SIGHUP is refused, and Ctrl-C still ends the run.
    func testPipesInAStateOrTheSessionFileNeverWedgeTheClient() throws {
        let server = try self.server
        let recorder = try JackRecorder(server: server.name, channels: 1, seconds: 0.2, name: "pipes")
        let folder = EntrainBinary.dataDirectory.appendingPathComponent("entrain")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("ir-\(UUID().uuidString).wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let session = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-session-\(UUID().uuidString).json")
        try Data(#"{"stages": [{"duration": "10:00", "volume": 0.5, "voices": [{"mode": "binaural", "carrier": 250, "beat": 6}]}]}"#.utf8).write(to: session)
        defer { try? FileManager.default.removeItem(at: session) }
        let (client, _, osc) = try startWithOSC(["--session", session.path], recorder: recorder)
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }

        let refusal = osc.request("/fx/entrainment/chain", [.string(try convolverChain(ir: fifo.path))], reply: "/error", timeout: 5)
        XCTAssertTrue(refusal.map { "\($0.arguments)".contains("not a regular file") } ?? false, "\(String(describing: refusal))")
        XCTAssertEqual(osc.request("/fx/entrainment/chain", timeout: 1)?.arguments.first, .string(""), "the OSC thread answers; nothing loaded")
        osc.send("/panic")
        XCTAssertNotNil(osc.request("/ping", reply: "/pong", timeout: 1))

        try FileManager.default.removeItem(at: session)
        XCTAssertEqual(mkfifo(session.path, 0o600), 0)
        kill(client.process.processIdentifier, SIGHUP)
        XCTAssertNotNil(osc.request("/ping", reply: "/pong", timeout: 2), "the control loop is not stuck on the pipe")
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5), "Ctrl-C ends the run")
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertTrue(client.result().error.contains("is a pipe, not a file"), client.result().error)
    }

    /// `validate` and `run` refuse a session that would arm the strobe through an HRV mapping
    /// or a MIDI binding, before anything plays.
    func testASessionArmingTheStrobeThroughAMappingIsRefused() throws {
        for (address, target) in [("/hrv/map/coherence", "/led/arm"), ("/midi/map", "1:7=/led/arm"), ("/hrv/pacer/targets", "/led/arm")] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("arming-\(UUID().uuidString).json")
            try Data(#"{"stages": [{"duration": 60, "set": {"\#(address)": "\#(target)"}}]}"#.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let validated = try EntrainBinary.run(["validate", file.path])
            XCTAssertNotEqual(validated.status, 0, address)
            XCTAssertTrue((validated.output + validated.error).contains("only a person may set this"), validated.output + validated.error)
            let ran = try EntrainBinary.run(["run", "--quiet", "--no-restore", "--session", file.path], environment: try server.environment)
            XCTAssertNotEqual(ran.status, 0, address)
            XCTAssertTrue(ran.error.contains("only a person may set this"), ran.error)
        }
    }

    /// Last-used settings saved by an older version with a MIDI binding onto the strobe's arming:
    /// the binding is dropped with a warning, the rest restored, the strobe stays disarmed.
    func testALastUsedBindingOntoTheArmingIsDroppedAndTheRestKept() throws {
        let server = try self.server
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-lastused-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data.appendingPathComponent("entrain"), withIntermediateDirectories: true)
        try Data(#"{"values": {"/entrain/carrier": 275, "/midi/map": "1:7=/led/arm", "/led/arm": true}}"#.utf8)
            .write(to: data.appendingPathComponent("entrain/last-used.json"))
        let port = freePort()
        let client = try EntrainBinary.launch(["run", "--quiet", "--osc-port", "\(port)", "--midi-in", "--fade-out", "0.1"],
                                              environment: server.environment.merging(["XDG_DATA_HOME": data.path]) { $1 })
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        let osc = try OSCTestClient(targetPort: port)
        let deadline = Date().addingTimeInterval(10)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil && Date() < deadline && client.process.isRunning {}
        XCTAssertEqual(osc.request("/entrain/carrier")?.arguments.first, .float(275), client.result().error)
        XCTAssertEqual(osc.request("/midi/map")?.arguments.first, .string("none"))
        XCTAssertEqual(osc.request("/led/arm")?.arguments.first, .false)
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
        XCTAssertTrue(client.result().error.contains("last-used settings: dropped"), client.result().error)
    }

    /// A value set over the session's own survives a JACK server's return: only what the
    /// program changed while the server was away moves.
    func testAValueSetOverASessionSurvivesTheServersReturn() throws {
        let server = try JackTestServer()
        defer { server.stop() }
        let session = FileManager.default.temporaryDirectory.appendingPathComponent("return-\(UUID().uuidString).json")
        try Data(#"{"stages": [{"duration": "10:00", "volume": 0.5, "voices": [{"mode": "binaural", "carrier": 250, "beat": 6}]}]}"#.utf8).write(to: session)
        defer { try? FileManager.default.removeItem(at: session) }
        let port = freePort()
        let client = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--osc-port", "\(port)", "--session", session.path,
                                               "--fade-in", "0.05", "--fade-out", "0.1"], environment: server.environment)
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        let osc = try OSCTestClient(targetPort: port)
        var deadline = Date().addingTimeInterval(10)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil && Date() < deadline {}
        osc.send("/entrain/volume", [.float(0.2)])
        deadline = Date().addingTimeInterval(5)
        while osc.request("/entrain/volume")?.arguments.first != .float(0.2) && Date() < deadline {}
        server.crash()
        deadline = Date().addingTimeInterval(10)
        while osc.request("/status")?.arguments[safe: 10] != .string("gone") && Date() < deadline {}
        try server.restart()
        deadline = Date().addingTimeInterval(15)
        while osc.request("/status")?.arguments[safe: 10] != .string("up") && Date() < deadline {}
        XCTAssertEqual(osc.request("/status")?.arguments[safe: 10], .string("up"), client.result().error)
        XCTAssertEqual(osc.request("/entrain/volume")?.arguments.first, .float(0.2), "the user's volume, not the stage's 0.5")
        XCTAssertEqual(osc.request("/session/status", reply: "/session/state")?.arguments.first, .string("playing"))
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
    }

    /// NSM: orders come from the manager alone; a client id JACK cannot take is refused to the
    /// manager in words (not "status 0x21" on stderr alone).
    func testNSMOrdersComeFromTheManagerAloneAndALongIdIsRefusedInWords() throws {
        let server = try self.server
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nsm-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 200-character client id.
        let nsm = try NSMTestServer()
        let long = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--osc-port", "0"],
                                            environment: server.environment.merging(["NSM_URL": nsm.url]) { $1 })
        defer { if long.process.isRunning { long.signal(SIGKILL, waitUpTo: 2) } }
        XCTAssertNotNil(nsm.wait(for: "/nsm/server/announce"))
        nsm.acceptAnnounce()
        nsm.open(path: folder.appendingPathComponent("a").path, displayName: "entrain", clientID: String(repeating: "x", count: 200))
        let error = nsm.wait(for: "/error")
        XCTAssertEqual(error?.message.arguments.first, .string("/nsm/client/open"))
        XCTAssertTrue("\(error?.message.arguments ?? [])".contains("JACK client name"), "\(String(describing: error))")
        long.process.waitUntilExit()
        XCTAssertNotEqual(long.result().status, 0)

        // A save from another socket than the manager's is ignored; the manager's is carried out.
        let manager = try NSMTestServer()
        let client = try EntrainBinary.launch(["run", "--quiet", "--no-restore", "--osc-port", "0", "--fade-out", "0.1"],
                                              environment: server.environment.merging(["NSM_URL": manager.url]) { $1 })
        defer { if client.process.isRunning { client.signal(SIGKILL, waitUpTo: 2) } }
        let announce = try XCTUnwrap(manager.wait(for: "/nsm/server/announce"))
        manager.acceptAnnounce()
        let path = folder.appendingPathComponent("b").path
        manager.open(path: path, displayName: "entrain", clientID: "entrain.nHOST")
        XCTAssertNotNil(manager.wait(for: "/reply"))
        let stranger = try OSCTestClient(targetPort: Int(announce.port))
        stranger.send("/nsm/client/save")
        XCTAssertNil(stranger.request("/nothing", reply: "/reply", timeout: 1), "no reply to a stranger")
        XCTAssertTrue(manager.replies(to: "/nsm/client/save").isEmpty, "no save carried out")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "/values.json"))
        manager.save()
        let deadline = Date().addingTimeInterval(5)
        while manager.replies(to: "/nsm/client/save").isEmpty && Date() < deadline { _ = manager.wait(for: "/reply", timeout: 0.2) }
        XCTAssertEqual(manager.replies(to: "/nsm/client/save").first?.address, "/reply", client.result().error)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "/values.json"), "the manager's save is carried out")
        XCTAssertTrue(client.signal(SIGTERM, waitUpTo: 5))
    }
}
