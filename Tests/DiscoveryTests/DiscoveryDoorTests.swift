@testable import EntrainDiscovery
import Foundation
import TestSupport
import XCTest

/// Who may use the discovery server: a request must name this server in `Host` (DNS
/// rebinding), and a WebSocket that carries an `Origin` must come from the page's own origin.
/// Raw sockets, so every header is exactly what a hostile page or client would send.
final class DiscoveryDoorTests: DiscoveryServerTestCase {
    /// One request on a fresh connection; the status and whether the server then closed.
    func exchange(_ head: String, from source: String? = nil) throws -> (status: Int?, text: String) {
        let connection = try RawTCPConnection(port: port, from: source)
        connection.send(head)
        let (bytes, _) = connection.readToClose(timeout: 5)
        return (RawTCPConnection.status(bytes), String(decoding: bytes, as: UTF8.self))
    }

    func get(_ path: String, host: String) throws -> Int? {
        try exchange("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n").status
    }

    func upgrade(host: String, origin: String?) throws -> Int? {
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let head = "GET / HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n" + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n"
        let connection = try RawTCPConnection(port: port)
        connection.send(head)
        var bytes: [UInt8] = []
        while bytes.firstRange(of: Array("\r\n\r\n".utf8)) == nil, connection.isReadable(within: 5) {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return RawTCPConnection.status(bytes)
    }

    /// DNS rebinding: `Host: evil.example:PORT` gets 403 for the page, the tree, a value,
    /// HOST_INFO and the WebSocket, with a log line that says why; the names of this machine
    /// and IP literals at this port are answered.
    func testAForeignHostIsRefusedEverywhere() throws {
        try start()
        let paths = ["/ui/", "/ui/app.js", "/", "/entrain/carrier", "/entrain/carrier?VALUE", "/?HOST_INFO"]
        for path in paths {
            XCTAssertEqual(try get(path, host: "evil.example:\(port)"), 403, path)
            XCTAssertEqual(try get(path, host: "127.0.0.1:\(port)"), 200, path)
        }
        XCTAssertEqual(try upgrade(host: "evil.example:\(port)", origin: nil), 403)
        XCTAssertEqual(try upgrade(host: "evil.example:\(port)", origin: "http://evil.example:\(port)"), 403)
        XCTAssertTrue(log.contains("evil.example"), "the log says why: \(log.all)")

        let machine = RequestPolicy.machineName()
        for host in ["localhost:\(port)", "LOCALHOST:\(port)", "127.0.0.1:\(port)", "127.1.2.3:\(port)", "[::1]:\(port)",
                     "\(machine):\(port)", "\(machine).local:\(port)", "192.168.7.7:\(port)"] {
            XCTAssertEqual(try get("/?HOST_INFO", host: host), 200, host)
        }
        for host in ["127.0.0.1:\(port + 1)", "localhost", "evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example:\(port)",
                     "127.0.0.1:\(port)@evil.example", "", "[::1:\(port)"] {
            XCTAssertEqual(try get("/?HOST_INFO", host: host), 403, host)
        }
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").status, 403, "no Host at all")
        XCTAssertEqual(try exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: evil.example:\(port)\r\n\r\n").status, 400, "two Hosts")
    }

    /// A browser always sends Origin with a WebSocket: another site's page, a file: or data:
    /// page (Origin null) and the same host on another port are refused; the page's own origin
    /// and a tool that sends no Origin (websocat, python-oscquery) get their WebSocket.
    func testAWebSocketFromAnotherOriginIsRefused() throws {
        try start()
        let host = "127.0.0.1:\(port)"
        XCTAssertEqual(try upgrade(host: host, origin: "http://evil.example"), 403)
        XCTAssertEqual(try upgrade(host: host, origin: "https://evil.example"), 403)
        XCTAssertEqual(try upgrade(host: host, origin: "null"), 403)
        XCTAssertEqual(try upgrade(host: host, origin: "http://127.0.0.1:\(port + 1)"), 403)
        XCTAssertEqual(try upgrade(host: host, origin: "http://localhost:\(port)"), 403, "another origin, though the same machine")
        XCTAssertEqual(try upgrade(host: host, origin: "https://127.0.0.1:\(port)"), 403)
        XCTAssertTrue(log.contains("Origin 'http://evil.example' is another site's page"), "\(log.all)")

        XCTAssertEqual(try upgrade(host: host, origin: "http://127.0.0.1:\(port)"), 101)
        XCTAssertEqual(try upgrade(host: "localhost:\(port)", origin: "http://localhost:\(port)"), 101)
        XCTAssertEqual(try upgrade(host: host, origin: nil), 101, "no Origin: not a browser")
        // A cross-site request for a value is refused too (it could only read, but need not).
        XCTAssertEqual(try exchange("GET /entrain/carrier?VALUE HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://evil.example\r\n\r\n").status, 403)
    }

    /// A kept-alive connection's second request is judged like its first.
    func testALaterRequestOnTheSameConnectionIsJudgedToo() throws {
        try start()
        let reply = try exchange("GET /?HOST_INFO HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                                 + "GET /?HOST_INFO HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(reply.text.hasPrefix("HTTP/1.1 200"), reply.text)
        XCTAssertTrue(reply.text.contains("HTTP/1.1 403"), reply.text)
    }
}
