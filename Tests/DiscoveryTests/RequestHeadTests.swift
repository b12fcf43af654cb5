@testable import EntrainDiscovery
import XCTest

/// Reading request heads from a connection's bytes (pipelined ones too) and writing answers.
final class RequestHeadTests: XCTestCase {
    func head(_ text: String) -> RequestHead? {
        var reader = RequestHeadReader()
        if case .complete(let head) = reader.feed(Array(text.utf8)) { return head }
        return nil
    }

    /// Two requests and the start of a third in one read: each head in turn, and what follows it kept.
    func testPipelinedRequestsAreReadOneAfterAnother() {
        var bytes = Array("GET /a HTTP/1.1\r\nHost: h:1\r\n\r\nHEAD /b?VALUE HTTP/1.1\r\nHost: h:1\r\n\r\nGET /c HT".utf8)
        var targets: [String] = []
        while true {
            var reader = RequestHeadReader()
            guard case .complete(let head) = reader.feed(bytes) else { break }
            targets.append("\(head.method) \(head.target)")
            bytes = Array(reader.rest)
        }
        XCTAssertEqual(targets, ["GET /a", "HEAD /b?VALUE"])
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "GET /c HT", "the third waits for the rest of its head")
    }

    /// What follows a WebSocket handshake's head (a client's first frame) is kept for the frame reader.
    func testBytesBehindAHeadAreKept() {
        var reader = RequestHeadReader()
        guard case .complete = reader.feed(Array("GET / HTTP/1.1\r\nHost: h:1\r\n\r\n".utf8) + [0x81, 0x80, 1, 2, 3, 4]) else { return XCTFail() }
        XCTAssertEqual(Array(reader.rest), [0x81, 0x80, 1, 2, 3, 4])
    }

    func testOversizedAndMalformedHeadsAreRefused() {
        func refusal(_ bytes: [UInt8]) -> String? {
            var reader = RequestHeadReader()
            if case .refused(let status, _) = reader.feed(bytes) { return status }
            return nil
        }
        XCTAssertEqual(refusal(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 70_000)).utf8)), "431 Request Header Fields Too Large",
                       "refused before the head ends")
        XCTAssertEqual(refusal(Array("GET / HTTP/1.1\r\n: empty name\r\n\r\n".utf8)), "400 Bad Request")
        XCTAssertEqual(refusal(Array("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n".utf8)), "400 Bad Request")
        XCTAssertEqual(refusal(Array("GET /\r\n\r\n".utf8)), "400 Bad Request", "HTTP/0.9 is not spoken")
        XCTAssertEqual(refusal(Array("GET / HTTP/1.1 extra\r\n\r\n".utf8)), "400 Bad Request")
        XCTAssertEqual(refusal(Array("GET / SPDY/3\r\n\r\n".utf8)), "400 Bad Request")
        XCTAssertEqual(refusal([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 10, 10]), "400 Bad Request", "TLS to a plain port")
        XCTAssertNil(refusal(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8)), "incomplete, not refused")
    }

    func testTargetsAndConnectionFields() throws {
        let plain = try XCTUnwrap(head("GET /entrain/carrier?VALUE HTTP/1.1\r\nHost: h:1\r\n\r\n"))
        XCTAssertEqual(plain.path, "/entrain/carrier")
        XCTAssertEqual(plain.query, "VALUE")
        XCTAssertTrue(plain.keepsAlive)
        let absolute = try XCTUnwrap(head("GET http://h:1/ui/app.js HTTP/1.1\r\nHost: h:1\r\n\r\n"))
        XCTAssertEqual(absolute.path, "/ui/app.js")
        XCTAssertEqual(try XCTUnwrap(head("GET http://h:1 HTTP/1.1\r\n\r\n")).path, "/")
        XCTAssertEqual(try XCTUnwrap(head("GET /?HOST_INFO#x HTTP/1.1\r\n\r\n")).query, "HOST_INFO")
        XCTAssertEqual(try XCTUnwrap(head("GET /a%20b HTTP/1.1\r\n\r\n")).path, "/a%20b", "as sent, not decoded")
        XCTAssertFalse(try XCTUnwrap(head("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")).keepsAlive)
        XCTAssertFalse(try XCTUnwrap(head("GET / HTTP/1.0\r\n\r\n")).keepsAlive, "HTTP/1.0 closes unless asked")
        XCTAssertTrue(try XCTUnwrap(head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")).keepsAlive)
        let upgrade = try XCTUnwrap(head("GET / HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\nUpgrade: WebSocket\r\n\r\n"))
        XCTAssertTrue(upgrade.lists("connection", "upgrade"))
        XCTAssertTrue(WebSocketHandshake.isRequested(upgrade))
    }

    func testTheHandshakesAnswerAndRefusals() throws {
        let good = "GET / HTTP/1.1\r\nHost: h:1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard case .success(let response) = WebSocketHandshake.answer(try XCTUnwrap(head(good))) else { return XCTFail("refused") }
        let text = String(decoding: response.serialized(close: false, date: "D"), as: UTF8.self)
        XCTAssertEqual(text, "HTTP/1.1 101 Switching Protocols\r\nDate: D\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
        for (bad, why) in [(good.replacingOccurrences(of: "Version: 13", with: "Version: 8"), "an old version"),
                           (good.replacingOccurrences(of: "dGhlIHNhbXBsZSBub25jZQ==", with: "c2hvcnQ="), "a key of 5 bytes"),
                           (good.replacingOccurrences(of: "Connection: Upgrade", with: "Connection: keep-alive"), "no Connection: Upgrade"),
                           (good.replacingOccurrences(of: "GET", with: "POST"), "POST"),
                           (good.replacingOccurrences(of: "HTTP/1.1", with: "HTTP/1.0"), "HTTP/1.0")] {
            guard case .failure = WebSocketHandshake.answer(try XCTUnwrap(head(bad), why)) else { return XCTFail("accepted \(why)") }
        }
    }

    func testAnswersOnTheWire() {
        let page = HTTPResponse("200 OK", headers: [("Content-Type", "text/html")], body: Array("<p>".utf8))
        XCTAssertEqual(String(decoding: page.serialized(close: false, date: "D"), as: UTF8.self),
                       "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Type: text/html\r\nContent-Length: 3\r\n\r\n<p>")
        XCTAssertEqual(String(decoding: page.serialized(head: true, close: true, date: "D"), as: UTF8.self),
                       "HTTP/1.1 200 OK\r\nDate: D\r\nContent-Type: text/html\r\nContent-Length: 3\r\nConnection: close\r\n\r\n",
                       "HEAD: the same fields, no body")
        XCTAssertEqual(String(decoding: HTTPResponse("204 No Content").serialized(close: false, keepAlive: true, date: "D"), as: UTF8.self),
                       "HTTP/1.1 204 No Content\r\nDate: D\r\nConnection: keep-alive\r\n\r\n", "no length on a 204")
        XCTAssertEqual(HTTPDate.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT", "RFC 9110's example")
    }
}
