import EntrainControl
@testable import EntrainDiscovery
import XCTest

/// What one WebSocket client can make the server keep: listened paths that exist, at most
/// `listenLimit`; awaited queries at most `queryLimit`, forgotten when due.
final class ListenSessionTests: XCTestCase {
    let known: Set<String> = ["/entrain/carrier", "/entrain", "/"]
    func resolve(_ path: String) -> String? { known.contains(path) ? path : (path.hasPrefix("/n/") ? path : nil) }

    func listen(_ session: ListenSession, _ path: String) -> String? {
        session.command(#"{"COMMAND": "LISTEN", "DATA": "\#(path)"}"#, resolve: resolve).problem
    }

    func testOnlyPathsThatExistAreListenedTo() {
        let session = ListenSession()
        XCTAssertNil(listen(session, "/entrain/carrier"))
        let long = "/" + String(repeating: "x", count: 10_000)
        let problem = listen(session, long)
        XCTAssertTrue(problem?.hasPrefix("LISTEN: no such path /xxx") ?? false, problem ?? "")
        XCTAssertLessThan(problem?.count ?? 0, 200, "the reply does not echo a long path whole")
        XCTAssertEqual(session.held.listened, 1)
    }

    func testListenedPathsAreCapped() {
        let session = ListenSession()
        for i in 0..<ListenSession.listenLimit { XCTAssertNil(listen(session, "/n/\(i)")) }
        XCTAssertNotNil(listen(session, "/n/one-more"))
        XCTAssertNil(listen(session, "/n/0"), "listening again to a path held is fine")
        XCTAssertEqual(session.held.listened, ListenSession.listenLimit)
    }

    func testQueriesAreCappedAndForgottenWhenDue() {
        let session = ListenSession()
        for i in 0..<10_000 { session.sent([OSCMessage("/q/\(i)")], now: 100) }
        XCTAssertEqual(session.held.queried, ListenSession.queryLimit)
        // The newest still passes, the oldest were forgotten.
        XCTAssertNotNil(session.filter(OSCCodec.encode(OSCMessage("/q/9999", [.float(1)])), now: 100.5))
        XCTAssertNil(session.filter(OSCCodec.encode(OSCMessage("/q/0", [.float(1)])), now: 100.5))
        session.sent([OSCMessage("/later")], now: 200)
        XCTAssertEqual(session.held.queried, 1, "the due ones are dropped")
        session.sent([OSCMessage("/" + String(repeating: "y", count: 5000))], now: 200)
        XCTAssertEqual(session.held.queried, 1, "an address longer than any is not remembered")
    }
}
