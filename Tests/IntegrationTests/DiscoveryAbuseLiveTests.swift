import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The discovery server of the real client against what a hostile web page or network client
/// does: another site's page in a real Chromium, a half-open request at exit, a flood of
/// connections, a flood of LISTENs and queries on one WebSocket.
final class DiscoveryAbuseLiveTests: LiveClientTestCase {
    /// A page that opens a WebSocket to `port` and sends OSC (`address` ← `value`); `outcome`
    /// becomes "sent" once it could send, "refused" when the socket failed.
    static func attack(port: Int, address: String, value: Double) -> String {
        "<!doctype html><title>elsewhere</title><script>\n\(script(port: port, address: address, value: value))</script>\n"
    }

    static func script(port: Int, address: String, value: Double) -> String {
        """
        (() => {
        function osc(address, value) {
          const pad = s => { const b = new TextEncoder().encode(s); const o = new Uint8Array(Math.ceil((b.length + 1) / 4) * 4); o.set(b); return o; };
          const a = pad(address), t = pad(',f'), v = new Uint8Array(4);
          new DataView(v.buffer).setFloat32(0, value);
          const o = new Uint8Array(a.length + t.length + 4); o.set(a); o.set(t, a.length); o.set(v, a.length + t.length); return o;
        }
        window.outcome = new Promise(resolve => {
          const ws = new WebSocket('ws://127.0.0.1:\(port)/');
          ws.binaryType = 'arraybuffer';
          ws.onopen = () => { ws.send(osc('\(address)', \(value))); setTimeout(() => resolve('sent'), 300); };
          ws.onerror = () => resolve('refused');
          ws.onclose = () => resolve('refused');
        });
        })();
        """
    }

    /// Another site's page (served by a second HTTP server on another port) and a data: page
    /// try to arm the strobe through the WebSocket: the upgrade fails, /led/arm stays 0 and
    /// nothing logs STROBE ARMED. The same script from the control page's own origin works.
    func testAnotherSitesPageInChromiumCannotArmTheStrobe() throws {
        guard ChromiumDevTools.executable != nil else { throw XCTSkip("chromium is not installed (scripts/install-deps.sh installs it)") }
        let recorder = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(["--log-level", "info"], recorder: recorder)
        let site = try TemporaryFolder("entrain-elsewhere")
        defer { site.remove() }
        try Data(Self.attack(port: port, address: "/led/arm", value: 1).utf8).write(to: site.url.appendingPathComponent("index.html"))
        let elsewhere = try LocalWebServer(folder: site.url, port: freePort())
        let browser = try ChromiumDevTools()

        try browser.open("http://127.0.0.1:\(elsewhere.port)/")
        try browser.wait(for: "document.title === 'elsewhere'")
        XCTAssertEqual(try browser.evaluate("window.outcome") as? String, "refused", "another site's WebSocket")

        let data = Data(Self.attack(port: port, address: "/led/arm", value: 1).utf8).base64EncodedString()
        try browser.open("data:text/html;base64,\(data)")
        try browser.wait(for: "document.title === 'elsewhere'")
        XCTAssertEqual(try browser.evaluate("window.outcome") as? String, "refused", "a data: page's WebSocket (Origin null)")

        // The page's own origin: the same script sets a value.
        try browser.open("http://127.0.0.1:\(port)/ui/")
        try browser.wait(for: "document.getElementById('state') !== null")
        try browser.evaluate(Self.script(port: port, address: "/entrain/beat", value: 7.5) + "; 1")
        XCTAssertEqual(try browser.evaluate("window.outcome") as? String, "sent", "the page's own origin")
        XCTAssertEqual(osc.request("/entrain/beat")?.arguments.first, .float(7.5), "same origin reaches the engine")

        let arm = osc.request("/led/arm")?.arguments.first
        XCTAssertTrue(arm == .float(0) || arm == .int32(0) || arm == .false, "still disarmed: \(String(describing: arm))")
        stopClient(client)
        let log = client.result().error
        XCTAssertFalse(log.contains("STROBE ARMED"), log)
        XCTAssertTrue(log.contains("is another site's page"), "the log says why: \(log)")
    }

    /// Another site's page that frames the control page (to lay its own page over it and steer
    /// clicks onto Resume or Load) gets Chromium's error page in the frame, not ours: the page is
    /// sent with `frame-ancestors 'none'`. Opened by itself, the same address loads.
    func testAnotherSitesPageCannotFrameTheControlPage() throws {
        guard ChromiumDevTools.executable != nil else { throw XCTSkip("chromium is not installed (scripts/install-deps.sh installs it)") }
        let recorder = try recorder(seconds: 0.1)
        let (client, port, _) = try startWithOSC([], recorder: recorder)
        let site = try TemporaryFolder("entrain-framing")
        defer { site.remove() }
        let framing = "<!doctype html><title>framing</title><iframe src='http://127.0.0.1:\(port)/ui/' onload='window.framed = true'></iframe>"
        try Data(framing.utf8).write(to: site.url.appendingPathComponent("index.html"))
        let elsewhere = try LocalWebServer(folder: site.url, port: freePort())
        let browser = try ChromiumDevTools()

        try browser.open("http://127.0.0.1:\(elsewhere.port)/")
        try browser.wait(for: "window.framed === true")
        let tree = try browser.call("Page.getFrameTree")["frameTree"] as? [String: Any]
        let children = tree?["childFrames"] as? [[String: Any]] ?? []
        let frame = try XCTUnwrap(children.first?["frame"] as? [String: Any], "the iframe is in the frame tree: \(String(describing: tree))")
        let url = frame["url"] as? String ?? ""
        XCTAssertFalse(url.hasSuffix("/ui/"), "the framed control page was blocked, the frame shows \(url)")
        XCTAssertEqual(frame["unreachableUrl"] as? String, "http://127.0.0.1:\(port)/ui/", "Chromium names what it refused to show")

        try browser.open("http://127.0.0.1:\(port)/ui/")
        try browser.wait(for: "document.getElementById('state') !== null")
        stopClient(client)
    }

    /// Opened to a LAN (`--osc-bind 0.0.0.0`), the page and OSCQuery obey `--osc-allow` as OSC
    /// does (the same allowlist object): this machine's network address, not in the list, gets
    /// 403 and no WebSocket; loopback is served.
    func testOnALANThePageAndOSCQueryObeyTheAllowList() throws {
        guard let local = Loopback.nonLoopbackIPv4() else { throw XCTSkip("this machine has no non-loopback IPv4 address to connect from") }
        let recorder = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(["--osc-bind", "0.0.0.0", "--osc-allow", "203.0.113.0/24", "--log-level", "info"], recorder: recorder)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/?HOST_INFO").status, 200, "loopback")
        XCTAssertEqual(try HTTPTestClient.get(host: local, port: port, path: "/ui/", from: local).status, 403)
        XCTAssertEqual(try HTTPTestClient.get(host: local, port: port, path: "/entrain/carrier?VALUE", from: local).status, 403)
        XCTAssertThrowsError(try WebSocketTestClient(host: local, port: port))
        XCTAssertNotNil(osc.request("/ping", reply: "/pong", timeout: 2))
        stopClient(client)
        XCTAssertTrue(client.result().error.contains("not in --osc-allow"), client.result().error)
    }

    /// One connection holding half a request does not hold up the exit: SIGINT, and the client
    /// is gone within its fade (0.2 s) and a little; with a long fade a second SIGINT ends it at once.
    func testAHalfOpenHTTPClientDoesNotDelayExit() throws {
        let recorder = try recorder(seconds: 0.1)
        let (client, port, _) = try startWithOSC(recorder: recorder)
        let holder = try Self.connect(port)
        holder.send("GET / HTTP/1.1\r\nHost: x\r\n")
        XCTAssertFalse(holder.isReadable(within: 0.3), "held open, as a slow client would")
        let sent = Date()
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 3), "exited although a client holds half a request")
        print("SIGINT with a half-open HTTP client (fade 0.2 s): gone after \(String(format: "%.2f", Date().timeIntervalSince(sent))) s")
        XCTAssertEqual(client.result().status, 0, client.result().error)
        withExtendedLifetime(holder) {}

        let (again, againPort, _) = try startWithOSC(["--fade-out", "60"], recorder: recorder)
        let second = try Self.connect(againPort)
        second.send("GET / HTTP/1.1\r\nHost: x\r\n")
        kill(again.process.processIdentifier, SIGINT)
        XCTAssertFalse(again.signal(0, waitUpTo: 0.5), "the first SIGINT fades out over a minute")
        let twice = Date()
        XCTAssertTrue(again.signal(SIGINT, waitUpTo: 3), "the second SIGINT ends it now")
        print("second SIGINT with a half-open HTTP client: gone after \(String(format: "%.2f", Date().timeIntervalSince(twice))) s")
        XCTAssertEqual(again.result().status, 0, again.result().error)
        withExtendedLifetime(second) {}
    }

    /// With an open-file limit of 300, a flood of 640 silent connections from 20 addresses
    /// leaves the client its descriptors: a preset saves during the flood.
    func testAFloodOfConnectionsLeavesDescriptorsForSaves() throws {
        let data = try TemporaryFolder("entrain-flood")
        defer { data.remove() }
        let recorder = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(["--log-level", "info"], environment: ["XDG_DATA_HOME": data.url.path],
                                                   wrapper: ["/usr/bin/prlimit", "--nofile=300:300"], recorder: recorder)
        let pid = client.process.processIdentifier
        var flood: [RawTCPConnection] = []
        for peer in 2...21 { for _ in 0..<32 { if let c = try? RawTCPConnection(port: port, from: "127.0.0.\(peer)") { flood.append(c) } } }
        let held = Self.settledDescriptorCount(pid)
        print("flood of \(flood.count) connections: the client holds \(held) descriptors of 300")
        XCTAssertLessThanOrEqual(held, 300 - 100, "descriptors left for files")
        osc.send("/preset/save", [.string("During the flood")])
        let preset = data.url.appendingPathComponent("entrain/presets/During the flood.json")
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: preset.path), Date() < deadline { usleep(20_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: preset.path), "the preset was saved during the flood")
        XCTAssertNotNil(try? HTTPTestClient.get(port: port, path: "/?HOST_INFO", from: "127.0.0.99"), "still answers")
        stopClient(client)
        withExtendedLifetime(flood) {}
        XCTAssertFalse(client.result().error.contains("Too many open files"), client.result().error)
        XCTAssertTrue(client.result().error.contains("the most from one address") || client.result().error.contains("the most in all"), client.result().error)
    }

    /// A connection to the discovery server, which opens just after OSC answers.
    static func connect(_ port: Int) throws -> RawTCPConnection {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do { return try RawTCPConnection(port: port) } catch { if Date() > deadline { throw error } }
            usleep(20_000)
        }
    }

    /// The number of descriptors `pid` has open, once it has not changed for a second.
    static func settledDescriptorCount(_ pid: Int32) -> Int {
        func count() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0 }
        var last = count(), since = Date()
        let deadline = Date().addingTimeInterval(20)
        while Date().timeIntervalSince(since) < 1, Date() < deadline {
            usleep(100_000)
            let now = count()
            if now != last { last = now; since = Date() }
        }
        return last
    }

    /// Resident memory of `pid` in MB, from /proc.
    static func residentMB(_ pid: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    /// 20,000 LISTENs of 2,000-character paths and 200,000 distinct queries on one WebSocket:
    /// the client grows by at most 32 MB while it is open.
    func testAFloodOfListensAndQueriesOnOneWebSocketIsBounded() throws {
        let recorder = try recorder(seconds: 0.1)
        let (client, port, _) = try startWithOSC(recorder: recorder)
        defer { stopClient(client) }
        let pid = client.process.processIdentifier
        let socket = try WebSocketTestClient(port: port, timeout: 1)
        try socket.send(text: #"{"COMMAND": "LISTEN", "DATA": "/entrain/carrier"}"#)
        try Self.ping(socket)
        let before = Self.residentMB(pid)
        let long = String(repeating: "p", count: 2000)
        // Read every reply between batches of 500: the server closes a reader that lets more than
        // 256 KiB of them wait (each refused LISTEN and each query is answered), as it should.
        for i in 0..<20_000 {
            try socket.send(text: #"{"COMMAND": "LISTEN", "DATA": "/\#(i)/\#(long)"}"#)
            if i % 500 == 499 { try Self.ping(socket) }
        }
        // Distinct queries, 80 times the 256 a session remembers.
        for i in 0..<20_000 {
            try socket.send(binary: OSCCodec.encode(OSCMessage("/query/number/\(i)")))
            if i % 500 == 499 { try Self.ping(socket) }
        }
        try Self.ping(socket)
        let during = Self.residentMB(pid)
        print(String(format: "flood of LISTENs and queries on one WebSocket: %.1f MB before, %.1f MB while open (+%.1f MB)", before, during, during - before))
        XCTAssertLessThan(during - before, 32)
    }

    /// A WebSocket client that sends and never reads (a stalled phone, a hostile script): the
    /// answers wait in the system's buffers, then in ours up to 256 KiB, and then it is cut off
    /// with a log line; OSC and HTTP are answered throughout, and the client's memory stays put.
    func testAWebSocketClientThatNeverReadsIsCutOff() throws {
        let recorder = try recorder(seconds: 0.1)
        let (client, port, osc) = try startWithOSC(["--log-level", "info"], recorder: recorder)
        let pid = client.process.processIdentifier
        let socket = try WebSocketTestClient(port: port, timeout: 1)
        let before = Self.residentMB(pid)
        // Each refused LISTEN is answered with an ERROR text of about 150 bytes.
        let listen = #"{"COMMAND": "LISTEN", "DATA": "/\#(String(repeating: "n", count: 120))"}"#
        var sent = 0, cut = false
        let began = Date()
        while !cut, Date().timeIntervalSince(began) < 120 {
            for _ in 0..<1000 {
                do { try socket.send(text: listen) } catch { cut = true; break }
                sent += 1
            }
            XCTAssertNotNil(osc.request("/ping", reply: "/pong", timeout: 2), "OSC answers meanwhile")
            XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/?HOST_INFO").status, 200, "HTTP answers meanwhile")
        }
        let during = Self.residentMB(pid)
        print(String(format: "a WebSocket client that never reads: cut off after %d commands in %.2f s; %.1f MB before, %.1f MB after",
                     sent, Date().timeIntervalSince(began), before, during))
        stopClient(client)
        XCTAssertTrue(cut, "the server closed the connection")
        XCTAssertTrue(client.result().error.contains("over 256 KiB waiting for it to read"), client.result().error)
        XCTAssertLessThan(during - before, 32)
    }

    /// Sends /ping until /pong comes back (the inbox may have been full), reading past the rest.
    static func ping(_ socket: WebSocketTestClient) throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            try socket.send(binary: OSCCodec.encode(OSCMessage("/ping")))
            let wait = Date().addingTimeInterval(1)
            while Date() < wait, let message = try socket.receive() {
                if case .binary(let bytes) = message, (try? OSCCodec.decode(bytes))?.contains(where: { $0.message.address == "/pong" }) == true { return }
            }
        }
        throw RawTCPConnection.Failure(description: "no /pong")
    }
}
