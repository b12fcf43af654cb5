@testable import EntrainDiscovery
import XCTest

/// The Host and Origin rules, and the reading of a request's head, without a server.
final class RequestPolicyTests: XCTestCase {
    let policy = RequestPolicy(bind: "192.168.1.20", machineName: "studio")

    func testHostMustNameThisServerAtItsPort() {
        for host in ["192.168.1.20:8000", "localhost:8000", "studio:8000", "STUDIO.local:8000", "10.0.0.1:8000", "[fe80::1]:8000", "localhost.:8000"] {
            XCTAssertNil(policy.refusal(host: host, origin: nil, port: 8000), host)
        }
        for host in ["evil.example:8000", "studio.evil.example:8000", "localhost:8001", "localhost", "127.0.0.1:0", "127.0.0.1:99999",
                     "[fe80::1:8000", "1.2.3.4:8000:1", "l\u{f6}calhost:8000", "", "studio.lan:8000"] {
            XCTAssertNotNil(policy.refusal(host: host, origin: nil, port: 8000), host)
        }
        XCTAssertNotNil(policy.refusal(host: nil, origin: nil, port: 8000))
        XCTAssertNil(policy.refusal(host: "localhost", origin: nil, port: 80), "port 80 may be left out")
    }

    func testOriginMustBeThePagesOwn() {
        XCTAssertNil(policy.refusal(host: "localhost:8000", origin: "http://localhost:8000", port: 8000))
        XCTAssertNil(policy.refusal(host: "Localhost:8000", origin: "HTTP://localhost:8000", port: 8000))
        for origin in ["null", "http://evil.example", "http://localhost:8001", "http://localhost", "https://localhost:8000",
                       "http://127.0.0.1:8000", "file://", "chrome-extension://abc"] {
            XCTAssertNotNil(policy.refusal(host: "localhost:8000", origin: origin, port: 8000), origin)
        }
    }

    func testAHeadIsReadAByteAtATime() {
        var reader = RequestHeadReader()
        let text = "\r\nGET /ui/ HTTP/1.1\r\nHost: localhost:8000\r\norigin:  http://localhost:8000 \r\n\r\nrest"
        var last = RequestHead.Reading.incomplete
        for byte in text.utf8 where last == .incomplete { last = reader.feed([byte]) }
        XCTAssertEqual(last, .complete(RequestHead(method: "GET", target: "/ui/", version: "HTTP/1.1",
                                                        headers: [.init(name: "host", value: "localhost:8000"), .init(name: "origin", value: "http://localhost:8000")])))
        var lf = RequestHeadReader()
        if case .complete(let head) = lf.feed(Array("GET / HTTP/1.0\nHost: a:1\n\n".utf8)) {
            XCTAssertEqual(head.values("host"), ["a:1"])
        } else { XCTFail("bare LF heads are read") }
    }

    func testWhatIsRefusedBeforeTheHeadEnds() {
        func status(_ chunks: [String]) -> String? {
            var reader = RequestHeadReader()
            for chunk in chunks { if case .refused(let status, _) = reader.feed(Array(chunk.utf8)) { return status } }
            return nil
        }
        XCTAssertEqual(status(["GET / HTTP/9.9\r\n"]), "505 HTTP Version Not Supported")
        XCTAssertEqual(status(["GET / HTTP/1.1\r\n", String(repeating: "X-A: b\r\n", count: 9000)]), "431 Request Header Fields Too Large")
        XCTAssertEqual(status([String(repeating: "a", count: 9000)]), "414 URI Too Long")
        XCTAssertEqual(status(["GET /  HTTP/1.1\r\n"]), "400 Bad Request")
        XCTAssertEqual(status(["GET / HTTP/1.1\r\nno colon\r\n\r\n"]), "400 Bad Request")
        XCTAssertNil(status(["GET / HTTP/1.1\r\nHost: a\r\n"]), "incomplete, not refused")
    }
}
