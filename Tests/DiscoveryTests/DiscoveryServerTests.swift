import EntrainAddressSpace
import EntrainControl
@testable import EntrainDiscovery
import Logging
import TestSupport
import XCTest

/// The OSCQuery HTTP server and its WebSocket, in this process, over real sockets.
final class DiscoveryServerTests: DiscoveryServerTestCase {
    func testHTTPAnswersTheTreeNodesAttributesHostInfoAndThePage() throws {
        try start()
        let root = try HTTPTestClient.get(port: port, path: "/")
        XCTAssertEqual(root.status, 200)
        XCTAssertNotNil((try root.json())["CONTENTS"])
        let value = try HTTPTestClient.get(port: port, path: "/entrain/carrier?VALUE")
        XCTAssertEqual(value.status, 200)
        XCTAssertEqual((try value.json())["VALUE"] as? [Double], [200])
        let node = try HTTPTestClient.get(port: port, path: "/entrain/carrier").json()
        XCTAssertEqual(node["TYPE"] as? String, "f")
        XCTAssertNil(node["CONTENTS"])

        let info = try HTTPTestClient.get(port: port, path: "/?HOST_INFO").json()
        XCTAssertEqual(info["NAME"] as? String, "entrain")
        XCTAssertEqual(info["OSC_PORT"] as? Int, 9123)
        XCTAssertEqual(info["OSC_TRANSPORT"] as? String, "UDP")
        let extensions = try XCTUnwrap(info["EXTENSIONS"] as? [String: Bool])
        XCTAssertEqual(extensions["LISTEN"], true)
        XCTAssertEqual(extensions["PATH_ADDED"], true)
        XCTAssertEqual(extensions["VALUE"], true)

        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/no/such/node").status, 404)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/entrain/carrier?COLOUR").status, 400)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/entrain?VALUE").status, 204)

        let page = try HTTPTestClient.get(port: port, path: "/ui/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("id=\"panic\""))
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/ui/app.js").status, 200)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/ui/nothing.js").status, 404)
    }

    /// A family added while running: every WebSocket client hears PATH_ADDED for each of its
    /// addresses, and PATH_REMOVED when it goes; the HTTP tree follows.
    func testWebSocketClientsHearPathsAddedAndRemoved() throws {
        try start()
        let socket = try WebSocketTestClient(port: port)
        usleep(300_000)  // the session's path watcher has taken its first look
        space.add(TestFamily())
        var added: [String] = []
        while added.count < 2, let message = try socket.receive() {
            guard case .text(let text) = message,
                  let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String] else { continue }
            XCTAssertEqual(object["COMMAND"], "PATH_ADDED")
            added.append(object["DATA"] ?? "")
        }
        XCTAssertEqual(added.sorted(), ["/test/gain", "/test/on"])
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/test/gain?VALUE").json()["VALUE"] as? [Double], [0.5])

        space.remove(named: "test")
        guard case .text(let text)? = try socket.receive() else { return XCTFail("no PATH_REMOVED") }
        XCTAssertTrue(text.contains("PATH_REMOVED"), text)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/test/gain").status, 404)
    }

    func testAWebSocketCommandThatIsNotUnderstoodGetsAnError() throws {
        try start()
        let socket = try WebSocketTestClient(port: port)
        try socket.send(text: #"{"COMMAND": "SHOUT", "DATA": "/entrain"}"#)
        guard case .text(let text)? = try socket.receive() else { return XCTFail("no answer") }
        XCTAssertTrue(text.contains("unknown COMMAND 'SHOUT'"), text)
    }

    /// Bound to every interface with only loopback allowed: a request from this machine's
    /// network address is refused (403), and so is its WebSocket.
    func testTheAllowListRefusesOtherSenders() throws {
        guard let local = Loopback.nonLoopbackIPv4() else { throw XCTSkip("this machine has no non-loopback IPv4 address to connect from") }
        try start(bind: "0.0.0.0", allows: { $0.isLoopback })
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/").status, 200, "loopback is allowed")
        XCTAssertEqual(try HTTPTestClient.get(host: local, port: port, path: "/", from: local).status, 403)
        XCTAssertThrowsError(try WebSocketTestClient(host: local, port: port))
    }
}

/// A family that comes and goes, like a hosted plugin's controls.
final class TestFamily: AddressFamily, @unchecked Sendable {
    let name = "test"
    let descriptors = [ControlDescriptor("/test/gain", .number(range: 0...1, step: nil, curve: .linear, integer: false), default: .number(0.5), "a gain"),
                       ControlDescriptor("/test/on", .toggle, default: .bool(true), "a switch")]
    func descriptor(for address: String) -> ControlDescriptor? { descriptors.first { $0.address == address } }
    func value(of address: String) -> ControlValue? { descriptor(for: address)?.defaultValue }
    func set(_ changes: [ControlChange], at frame: Int64?) throws {}
}
