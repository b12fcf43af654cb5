import EntrainControl
import Foundation
import TestSupport
import XCTest

/// OSCQuery, its WebSocket and the control page, against the real client on a dummy JACK server.
final class DiscoveryLiveTests: LiveClientTestCase {
    func testOSCQueryAndItsWebSocketServeTheRunningClient() throws {
        let recorder = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(recorder: recorder)
        defer { stopClient(client) }
        // OSCQuery on the OSC port's number, over TCP.
        let info = try HTTPTestClient.get(port: port, path: "/?HOST_INFO").json()
        XCTAssertEqual(info["OSC_PORT"] as? Int, port)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/entrain/carrier?VALUE").json()["VALUE"] as? [Double], [200])

        let socket = try WebSocketTestClient(port: port)
        try socket.send(text: #"{"COMMAND": "LISTEN", "DATA": "/entrain/carrier"}"#)
        // The socket's messages are handled in order: once a query sent after the LISTEN is
        // answered, the LISTEN is in force.
        try socket.send(binary: OSCCodec.encode(OSCMessage("/entrain/carrier")))
        var listening = false
        while !listening, let message = try socket.receive() {
            if case .binary(let bytes) = message, (try OSCCodec.decode(bytes)).contains(where: { $0.message.arguments == [.float(200)] }) { listening = true }
        }
        XCTAssertTrue(listening, "the query after the LISTEN is answered")
        osc.send("/entrain/carrier", [.float(300)])
        var heard: [Float] = []
        let deadline = Date().addingTimeInterval(5)
        while !heard.contains(300), Date() < deadline, let message = try socket.receive() {
            guard case .binary(let bytes) = message else { continue }
            for timed in try OSCCodec.decode(bytes) {
                XCTAssertEqual(timed.message.address, "/entrain/carrier", "only what is listened to")
                if case .float(let value)? = timed.message.arguments.first { heard.append(value) }
            }
        }
        XCTAssertTrue(heard.contains(300), "a change made over UDP reached the WebSocket: \(heard)")

        // OSC sent over the WebSocket acts like OSC over UDP; a query's answer comes back on it.
        try socket.send(binary: OSCCodec.encode(OSCMessage("/entrain/beat", [.float(7)])))
        XCTAssertTrue(waitUntil(timeout: 5) { osc.request("/entrain/beat")?.arguments == [.float(7)] }, "the beat set over the WebSocket")
        try socket.send(binary: OSCCodec.encode(OSCMessage("/entrain/volume")))
        var answered = false
        while !answered, let message = try socket.receive() {
            if case .binary(let bytes) = message, (try OSCCodec.decode(bytes)).contains(where: { $0.message.address == "/entrain/volume" }) { answered = true }
        }
        XCTAssertTrue(answered)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/entrain/beat?VALUE").json()["VALUE"] as? [Double], [7])
    }

    /// The page in headless Chromium: it shows the controls, a slider changes the engine's
    /// parameter, and its panic button silences the outputs (measured on the ports).
    func testTheControlPageInHeadlessChromiumMovesAParameterAndPanics() throws {
        guard ChromiumDevTools.executable != nil else { throw XCTSkip("chromium is not installed (scripts/install-deps.sh installs it)") }
        let recorder = try recorder(seconds: 1.0)
        let (client, port, osc) = try startWithOSC(recorder: recorder)
        defer { stopClient(client) }
        try recorder.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        let browser = try ChromiumDevTools()
        try browser.open("http://127.0.0.1:\(port)/ui/")
        try browser.wait(for: "document.querySelectorAll('.control').length > 100")
        try browser.wait(for: "document.getElementById('state').textContent === 'running'")
        XCTAssertEqual(try browser.evaluate("document.querySelector('input[data-address=\"/entrain/carrier\"]').max") as? String, "1500")

        // Drag the carrier slider to 321 Hz as a user would (an input event).
        try browser.evaluate("""
            (() => { const s = document.querySelector('input[data-address="/entrain/carrier"]');
                     s.value = 321; s.dispatchEvent(new Event('input')); })()
            """)
        var carrier: OSCValue?
        let deadline = Date().addingTimeInterval(5)
        while carrier != .float(321), Date() < deadline { carrier = osc.request("/entrain/carrier")?.arguments.first }
        XCTAssertEqual(carrier, .float(321), "the slider set the engine's carrier")

        // A change made elsewhere shows on the page.
        osc.send("/entrain/beat", [.float(4.5)])
        try browser.wait(for: "Number(document.querySelector('input[data-address=\"/entrain/beat\"]').value) === 4.5")

        if let path = ProcessInfo.processInfo.environment["ENTRAIN_SCREENSHOT"] {
            try browser.screenshot().write(to: URL(fileURLWithPath: path))
        }

        let sound = try recorder.record()
        XCTAssertGreaterThan(sound.joined().map(abs).max() ?? 0, 0.1, "playing before the panic")
        try browser.evaluate("document.getElementById('panic').click()")
        // The fade (10 ms) and the limiter's look-ahead: silence on both ports, then a second of it.
        try waitFor("/status to report the panic") { osc.request("/status")?.arguments[safe: 8] == .int32(1) }
        try waitFor("silence after the panic") { recorder.level == 0 }
        let after = try recorder.record()
        XCTAssertEqual(after.joined().map(abs).max() ?? 1, 0, "silent after the page's panic button")
    }

    /// --advertise publishes through Avahi when its daemon runs (checked with avahi-browse), and
    /// says why not when it does not; either way the client runs on.
    func testAdvertiseEitherPublishesOrSaysWhyNot() throws {
        let recorder = try recorder(seconds: 0.1)
        let port = freePort()
        let client = try startClient(["--osc-port", "\(port)", "--advertise", "--log-level", "info"], recorder: recorder)
        // Until the client says whether it advertised (the assertions below judge what it said).
        waitUntil(timeout: 5) { client.result().error.contains("advertised") }
        let osc = try OSCTestClient(targetPort: port)
        XCTAssertNotNil(osc.request("/ping", reply: "/pong", timeout: 2), "OSC answers")
        stopClient(client)
        let log = client.result().error
        if log.contains("advertised 'entrain'") {
            let browse = Process()
            browse.executableURL = URL(fileURLWithPath: "/usr/bin/avahi-browse")
            browse.arguments = ["-rtp", "_oscjson._tcp"]
            let out = Pipe()
            browse.standardOutput = out
            try browse.run()
            browse.waitUntilExit()
            XCTAssertTrue(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains(";\(port);"))
        } else {
            XCTAssertTrue(log.contains("--advertise: avahi-publish") && log.contains("not advertised"), log)
        }
    }
}
