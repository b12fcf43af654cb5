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

    /// An independent WebSocket client, Python's `websockets` 17.4, against our own server: its
    /// handshake (it offers permessage-deflate, which we decline), a LISTEN and a query answered
    /// in binary, a command it sends in fragments, its ping answered, a value set, and the close
    /// handshake with the code it sent coming back.
    func testPythonsWebSocketsClientInteroperates() throws {
        let recorder = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(recorder: recorder)
        defer { stopClient(client) }
        let said = try runPython("""
            import json, struct
            from websockets.sync.client import connect
            def pad(b): return b + b"\\0" * (4 - len(b) % 4)
            def osc(address, *values):
                return pad(address.encode()) + pad(("," + "f" * len(values)).encode()) + b"".join(struct.pack(">f", v) for v in values)
            said = {}
            with connect("ws://127.0.0.1:\(port)/", open_timeout=5) as ws:
                said["extensions"] = [type(e).__name__ for e in ws.protocol.extensions]
                ws.send(json.dumps({"COMMAND": "LISTEN", "DATA": "/entrain/carrier"}))
                ws.send(osc("/entrain/carrier"))
                while True:
                    message = ws.recv(timeout=5)
                    if isinstance(message, bytes) and message.startswith(b"/entrain/carrier"):
                        said["carrier"] = struct.unpack(">f", message[-4:])[0]
                        break
                ws.send(['{"COMMAND": ', '"SHOUT", ', '"DATA": "/entrain"}'])  # three fragments
                while True:
                    message = ws.recv(timeout=5)
                    if isinstance(message, str):
                        said["fragmented"] = json.loads(message)["DATA"]
                        break
                said["pong"] = ws.ping(b"are you there").wait(5)
                ws.send(osc("/entrain/beat", 7.0))
                ws.send(osc("/ping"))
                while not (isinstance(message, bytes) and message.startswith(b"/pong")):
                    message = ws.recv(timeout=5)
                ws.close(code=4001, reason="done here")
                said["close"] = [ws.protocol.close_rcvd.code, ws.protocol.close_rcvd.reason]
            print(json.dumps(said))
            """)
        let result = try JSONSerialization.jsonObject(with: Data((said.split(separator: "\n").last ?? "").utf8)) as? [String: Any] ?? [:]
        print("python websockets said: \(said)")
        XCTAssertEqual(result["extensions"] as? [String], [], "no extension agreed (permessage-deflate declined)")
        XCTAssertEqual(result["carrier"] as? Double, 200, "the query after the LISTEN answered in binary")
        XCTAssertTrue((result["fragmented"] as? String ?? "").contains("unknown COMMAND 'SHOUT'"), "the fragmented command was read whole")
        XCTAssertEqual(result["pong"] as? Bool, true, "our pong answered its ping")
        XCTAssertEqual((result["close"] as? [Any])?.first as? Int, 4001, "its close code came back")
        XCTAssertEqual(osc.request("/entrain/beat")?.arguments, [.float(7)], "the value it set over the WebSocket")
    }

    /// Every value answers in the type OSCQuery declares: a toggle (TYPE "T") answers and feeds
    /// back T/F (it answered i 0/1), a list's VALUE is one of its RANGE's VALS (/midi/notes'
    /// "led,haptic" was not), and python-oscquery 0.4.0 reads the whole tree (it refused nodes
    /// without a VALUE whose ACCESS was not 0).
    func testEveryValueAnswersInItsDeclaredTypeAndPythonOSCQueryReadsTheTree() throws {
        let recorder = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(recorder: recorder)
        defer { stopClient(client) }
        let tree = try HTTPTestClient.get(port: port, path: "/").json()
        var toggles = 0, lists = 0
        func walk(_ node: [String: Any]) {
            if let type = node["TYPE"] as? String, let value = (node["VALUE"] as? [Any])?.first, let path = node["FULL_PATH"] as? String {
                if type == "T" {
                    toggles += 1
                    XCTAssertTrue(value is Bool, "\(path): VALUE \(value)")
                }
                if let vals = ((node["RANGE"] as? [[String: Any]])?.first?["VALS"]) as? [String], let text = value as? String {
                    lists += 1
                    XCTAssertTrue(vals.contains(text), "\(path): VALUE '\(text)' not in \(vals)")
                }
            }
            if node["VALUE"] == nil { XCTAssertEqual(node["ACCESS"] as? Int, 0, "\(node["FULL_PATH"] ?? "?"): no VALUE, so ACCESS 0") }
            for child in (node["CONTENTS"] as? [String: Any] ?? [:]).values { if let child = child as? [String: Any] { walk(child) } }
        }
        walk(tree)
        XCTAssertGreaterThan(toggles, 50)
        XCTAssertGreaterThan(lists, 3)
        XCTAssertEqual(osc.request("/led/source/manual")?.arguments, [.false])
        osc.send("/led/source/manual", [.int32(1)])
        XCTAssertEqual(osc.request("/led/source/manual")?.arguments, [.true])
        XCTAssertEqual(osc.request("/midi/notes")?.arguments, [.string("led,haptic")])

        let said = try runPython("""
            import socket, sys
            from zeroconf import ServiceInfo
            from pythonoscquery.osc_query_client import OSCQueryClient
            info = ServiceInfo("_oscjson._tcp.local.", "entrain._oscjson._tcp.local.", addresses=[socket.inet_aton("127.0.0.1")], port=\(port))
            client = OSCQueryClient(info)
            root = client.query_node("/")
            def count(node):
                return 1 + sum(count(child) for child in (node.contents or []))
            print(count(root), client.get_host_info().osc_port)
            """)
        let words = said.split(whereSeparator: \.isWhitespace)
        XCTAssertGreaterThan(Int(words.first ?? "") ?? 0, 500, "the nodes python-oscquery read: \(said)")
        XCTAssertEqual(words.last.map(String.init), "\(port)")
    }

    /// The page in headless Chromium: it shows the controls, its field changes the engine's
    /// parameter, a change made elsewhere shows, and its panic button silences the outputs
    /// (measured on the ports). ControlPageLiveTests runs a whole show through it.
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
        let fader = #"document.querySelector('.fader[data-osc="/entrain/carrier"]')"#
        XCTAssertEqual(try browser.evaluate("\(fader).getAttribute('aria-valuemax')") as? String, "1500")

        // Type 321 Hz into the carrier's field.
        try browser.evaluate("""
            (() => { const f = document.querySelector('.exact[data-osc="/entrain/carrier"]');
                     f.value = '321'; f.dispatchEvent(new Event('change')); })()
            """)
        var carrier: OSCValue?
        let deadline = Date().addingTimeInterval(5)
        while carrier != .float(321), Date() < deadline { carrier = osc.request("/entrain/carrier")?.arguments.first }
        XCTAssertEqual(carrier, .float(321), "the field set the engine's carrier")

        // A change made elsewhere shows on the page.
        osc.send("/entrain/beat", [.float(4.5)])
        try browser.wait(for: #"Number(document.querySelector('.fader[data-osc="/entrain/beat"]').getAttribute('aria-valuenow')) === 4.5"#)

        let sound = try recorder.record()
        XCTAssertGreaterThan(sound.joined().map(abs).max() ?? 0, 0.1, "playing before the panic")
        try browser.evaluate("document.getElementById('panic').click()")
        // The fade (10 ms) and the limiter's look-ahead: silence on both ports, then a second of it.
        try waitFor("/status to report the panic") { osc.request("/status")?.arguments[safe: 8] == .int32(1) }
        try waitFor("silence after the panic") { recorder.level == 0 }
        let after = try recorder.record()
        XCTAssertEqual(after.joined().map(abs).max() ?? 1, 0, "silent after the page's panic button")
    }

    /// --advertise against a real avahi-daemon (a private one, on its own bus): with the default
    /// loopback bind it advertises nothing and says why (it advertised the LAN addresses, where
    /// nothing listened); bound to an address, that address alone, under the JACK client's name, so
    /// a second instance (`entrain-01`) is found as itself (it collided as `entrain` and blamed a
    /// missing daemon); a real collision is reported as one; no avahi-daemon is said plainly.
    func testAdvertiseOnlyWhatIsReachableUnderTheJACKName() throws {
        let avahi: AvahiTestDaemon
        do { avahi = try AvahiTestDaemon() } catch { throw XCTSkip("no private avahi-daemon: \(error)") }
        defer { avahi.stop() }
        let recorder = try recorder(seconds: 0.1)
        func run(_ arguments: [String], name: String = "entrain", jackName: String = "entrain") throws -> (EntrainBinary.Launched, Int) {
            let port = freePort()
            let client = try EntrainBinary.launch(["run", "--quiet", "--name", name, "--osc-port", "\(port)", "--no-restore", "--advertise",
                                                   "--fade-out", "0.05"] + arguments,
                                                  environment: try server.environment.merging(avahi.environment) { $1 })
            try recorder.waitForPort("\(jackName):haptic")
            // The advertisement's outcome, as the client logs it once its servers listen and Avahi
            // has answered. (A ping would not do: a client bound to the LAN address does not
            // answer on loopback, and each run waited out its deadline.)
            try waitFor("the advertisement's outcome in the log", timeout: 20) { client.result().error.contains("advertise") }
            return (client, port)
        }
        func browse(until done: ([(name: String, address: String, port: Int)]) -> Bool) throws -> [(name: String, address: String, port: Int)] {
            let deadline = Date().addingTimeInterval(10)
            var found = try avahi.browse("_osc._udp")
            while !done(found), Date() < deadline { found = try avahi.browse("_osc._udp") }
            return found
        }
        let (loopback, _) = try run([])
        XCTAssertTrue(try avahi.browse("_osc._udp").isEmpty, "nothing advertised for a loopback-only client")
        stopClient(loopback)
        XCTAssertTrue(loopback.result().error.contains("listen on 127.0.0.1 only"), loopback.result().error)

        let lan = try Self.lanAddress()
        let network = ["--osc-bind", lan, "--osc-allow", "any"]
        let (first, firstPort) = try run(network)
        let (second, secondPort) = try run(network, jackName: "entrain-01")
        let found = try browse { Set($0.map(\.name)).isSuperset(of: ["entrain", "entrain-01"]) }
        stopClient(second)
        stopClient(first)
        XCTAssertEqual(Set(found.map(\.name)), ["entrain", "entrain-01"], "\(found)")
        XCTAssertTrue(found.allSatisfy { $0.address == lan }, "only the bound address: \(found)")
        XCTAssertEqual(Set(found.map(\.port)), [firstPort, secondPort])
        XCTAssertTrue(second.result().error.contains("advertised 'entrain-01'"), second.result().error)

        // The name taken on the network: said so, and the client runs on.
        let squatter = Process()
        squatter.executableURL = URL(fileURLWithPath: "/usr/bin/avahi-publish")
        squatter.arguments = ["-s", "taken", "_osc._udp", "9"]
        squatter.environment = ProcessInfo.processInfo.environment.merging(avahi.environment) { $1 }
        squatter.standardError = FileHandle.nullDevice
        try squatter.run()
        defer { squatter.terminate() }
        _ = try browse { $0.contains { $0.name == "taken" } }
        let (third, _) = try run(network, name: "taken", jackName: "taken")
        stopClient(third)
        XCTAssertTrue(third.result().error.contains("the name 'taken' is already advertised"), third.result().error)
        XCTAssertFalse(third.result().error.contains("avahi-daemon"), third.result().error)
    }

    /// `script` run by the project's Python (python-oscquery, websockets: scripts/install-python-tools.sh,
    /// which make test runs): what it printed, once it has exited 0. Skips when they are not set up.
    func runPython(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let python = EntrainBinary.packageRoot.appendingPathComponent(".build/python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("the Python tools are not set up (scripts/install-python-tools.sh, which make test runs)")
        }
        let process = Process(), out = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, said, file: file, line: line)
        return said
    }

    /// This machine's first non-loopback IPv4 address.
    static func lanAddress() throws -> String {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { throw XCTSkip("no interfaces") }
        defer { freeifaddrs(list) }
        var next = list
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            inet_ntop(AF_INET, &ip, &text, socklen_t(INET_ADDRSTRLEN))
            let string = String(cString: text)
            if !string.hasPrefix("127.") { return string }
        }
        throw XCTSkip("no network address to bind")
    }
}
