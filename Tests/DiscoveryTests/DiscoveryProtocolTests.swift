@testable import EntrainDiscovery
import EntrainControl
import Foundation
import Logging
import TestSupport
import XCTest

/// Our HTTP/1.1 and WebSocket server as a client meets it on the wire: pipelined requests,
/// HEAD and other methods, the page's fields; the WebSocket's pings, fragments, close handshake,
/// its refusals with their close codes, and a client that never reads. Raw sockets, so every
/// byte is exactly what is sent.
final class DiscoveryProtocolTests: DiscoveryServerTestCase {
    /// Everything the server sends on `connection` until it closes (or 5 s of silence).
    func exchange(_ request: String) throws -> String {
        let connection = try RawTCPConnection(port: port)
        connection.send(request)
        return String(decoding: connection.readToClose(timeout: 5).bytes, as: UTF8.self)
    }

    func testPipelinedRequestsAreAnsweredInOrderOnOneConnection() throws {
        try start()
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let reply = try exchange("GET /?HOST_INFO HTTP/1.1\r\n\(host)\r\nGET /no/such HTTP/1.1\r\n\(host)\r\n"
                                 + "GET /entrain?VALUE HTTP/1.1\r\n\(host)\r\nGET /ui HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
        // Each status line (a body without a final newline runs straight into the next answer).
        let statuses = reply.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + $0.components(separatedBy: "\r\n")[0] }
        XCTAssertEqual(statuses, ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 204 No Content", "HTTP/1.1 301 Moved Permanently"])
        XCTAssertTrue(reply.contains("Location: /ui/\r\n"), reply)
        XCTAssertTrue(reply.hasSuffix("Connection: close\r\n\r\n"), "the last answer says it closes: \(reply.suffix(200))")
    }

    /// HEAD gets GET's fields without the body; other methods 405 with what is allowed; the page
    /// is never cached nor framed.
    func testHeadOtherMethodsAndThePagesFields() throws {
        try start()
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let get = try exchange("GET /ui/ HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
        let head = try exchange("HEAD /ui/ HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
        let getHead = get.components(separatedBy: "\r\n\r\n")[0].split(separator: "\r\n").filter { !$0.hasPrefix("Date:") }
        XCTAssertEqual(head.components(separatedBy: "\r\n\r\n")[0].split(separator: "\r\n").filter { !$0.hasPrefix("Date:") }, getHead)
        XCTAssertTrue(head.hasSuffix("\r\n\r\n"), "no body after HEAD's fields")
        for field in ["Cache-Control: no-store", "Content-Security-Policy: frame-ancestors 'none'", "X-Frame-Options: DENY", "Content-Type: text/html"] {
            XCTAssertTrue(getHead.contains { $0.hasPrefix(field) }, "\(field) in \(getHead)")
        }
        let length = Int(getHead.first { $0.hasPrefix("Content-Length: ") }?.dropFirst(16) ?? "") ?? -1
        XCTAssertEqual(length, get.utf8.count - get.components(separatedBy: "\r\n\r\n")[0].utf8.count - 4)

        let post = try exchange("POST /entrain/carrier HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nhello")
        XCTAssertTrue(post.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), post)
        XCTAssertTrue(post.contains("Allow: GET, HEAD\r\n"), post)
        XCTAssertTrue(post.contains("Connection: close\r\n"), "a request with a body is answered, then closed")
        let http10 = try exchange("GET /?HOST_INFO HTTP/1.0\r\n\(host)\r\n")
        XCTAssertTrue(http10.hasPrefix("HTTP/1.1 200 OK\r\n") && http10.contains("Connection: close\r\n"), http10)
    }

    /// An idle kept-alive connection is let go (here: after its 408 deadline for a later head
    /// begun and left).
    func testALaterHeadLeftHalfWayIsAnswered408() throws {
        try start(limits: { var l = ConnectionLimits.Numbers(); l.headDeadline = 1; return l }())
        let connection = try RawTCPConnection(port: port)
        connection.send("GET /?HOST_INFO HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\nGET / HTTP/1.1\r\n")
        let reply = String(decoding: connection.readToClose(timeout: 5).bytes, as: UTF8.self)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 200 OK"), reply)
        XCTAssertTrue(reply.contains("HTTP/1.1 408 Request Timeout"), reply)
        wait("the connection to be let go") { server.openConnections == 0 }
    }

    /// A port already taken is said plainly; a name that resolves to an IPv4 address may be bound.
    func testAPortInUseIsSaidAndANameMayBeBound() throws {
        try start(bind: "localhost")
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/?HOST_INFO").status, 200)
        var configuration = DiscoveryServer.Configuration()
        configuration.port = port
        let second = DiscoveryServer(configuration: configuration, space: space, bridge: BridgedPeers(), allows: { _ in true }, logger: Logger(label: "test"))
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertEqual("\(error)", "cannot serve OSCQuery on 127.0.0.1:\(port): the port is in use")
        }
        configuration.bind = "no-such-host.invalid"
        XCTAssertThrowsError(try DiscoveryServer(configuration: configuration, space: space, bridge: BridgedPeers(), allows: { _ in true },
                                                 logger: Logger(label: "test")).start()) { error in
            XCTAssertTrue("\(error)".contains("'no-such-host.invalid' is not an IPv4 address or a name of one"), "\(error)")
        }
    }

    // MARK: WebSocket

    /// A raw WebSocket on a fresh connection, past its 101.
    func openWebSocket() throws -> RawWebSocket {
        let socket = try RawWebSocket(port: port)
        XCTAssertTrue(socket.handshake.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), socket.handshake)
        return socket
    }

    func testPingsFragmentsAndTheCloseHandshake() throws {
        try start()
        let socket = try openWebSocket()
        let frame = WebSocketCodecTests.clientFrame
        // A command in three fragments with a ping between: the pong first, then the command's answer.
        socket.send(frame(1, Array(#"{"COMMAND": "SH"#.utf8), false, [1, 2, 3, 4], true, 0)
                    + frame(9, Array("are you there".utf8), true, [5, 6, 7, 8], true, 0)
                    + frame(0, Array(#"OUT", "DATA"#.utf8), false, [9, 9, 9, 9], true, 0)
                    + frame(0, Array(#"": "/entrain"}"#.utf8), true, [0, 0, 0, 0], true, 0))
        XCTAssertEqual(try socket.read().map { [$0.opcode] + $0.payload }, [10] + Array("are you there".utf8))
        let answer = try XCTUnwrap(try socket.read())
        XCTAssertEqual(answer.opcode, 1)
        XCTAssertTrue(String(decoding: answer.payload, as: UTF8.self).contains("unknown COMMAND 'SHOUT'"), String(decoding: answer.payload, as: UTF8.self))
        // The close handshake: our code comes back, then the server closes.
        socket.send(frame(8, [0x03, 0xE8] + Array("done".utf8), true, [1, 1, 1, 1], true, 0))
        let close = try XCTUnwrap(try socket.read())
        XCTAssertEqual(close.opcode, 8)
        XCTAssertEqual(Array(close.payload.prefix(2)), [0x03, 0xE8])
        XCTAssertTrue(socket.connection.readToClose(timeout: 5).closed)
        wait("the connection to be let go") { server.openConnections == 0 }
    }

    /// Broken frames are answered with a close frame naming the problem's code, then a close.
    func testAProtocolErrorOrAnOversizedMessageClosesWithItsCode() throws {
        try start()
        let frame = WebSocketCodecTests.clientFrame
        for (bytes, code) in [(frame(1, Array("hi".utf8), true, [0, 0, 0, 0], false, 0), UInt16(1002)),  // unmasked
                              (frame(5, [], true, [1, 2, 3, 4], true, 0), 1002),  // reserved opcode
                              (frame(2, Array(repeating: 1, count: 70_000), true, [1, 2, 3, 4], true, 0), 1009),
                              (frame(1, [0xFF], true, [1, 2, 3, 4], true, 0), 1007)] {
            let socket = try openWebSocket()
            socket.send(bytes)
            let close = try XCTUnwrap(try socket.read(), "a close frame for \(code)")
            XCTAssertEqual(close.opcode, 8)
            XCTAssertEqual(close.payload.count >= 2 ? UInt16(close.payload[0]) << 8 | UInt16(close.payload[1]) : 0, code)
            XCTAssertTrue(socket.connection.readToClose(timeout: 5).closed)
        }
        XCTAssertTrue(log.contains("closed the WebSocket of 127.0.0.1"), "\(log.all)")
    }

    /// A client that sends and never reads: the answers pile up in the system's buffers, then in
    /// ours up to 256 KiB, and then it is cut off with a log line; others are served meanwhile.
    /// Each refused LISTEN is answered with an ERROR of about 150 bytes; each ping with a pong.
    func testAWebSocketClientThatNeverReadsIsClosed() throws {
        try start()
        let listen = WebSocketCodecTests.clientFrame(1, Array(#"{"COMMAND": "LISTEN", "DATA": "/\#(String(repeating: "n", count: 120))"}"#.utf8))
        try floodWithoutReading(listen, what: "LISTENs")
        XCTAssertTrue(log.contains("over 256 KiB waiting for it to read"), "\(log.all)")
        try floodWithoutReading(WebSocketCodecTests.clientFrame(9, Array(repeating: 7, count: 125)), what: "pings")
    }

    private func floodWithoutReading(_ frame: [UInt8], what: String) throws {
        let socket = try openWebSocket()
        var small: Int32 = 4096  // a small receive window, so the system holds little for it
        setsockopt(socket.connection.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let batch = Array(Array(repeating: frame, count: 1000).joined())
        var sent = 0
        let began = Date()
        while Date().timeIntervalSince(began) < 60 {
            guard socket.connection.send(batch) else { break }  // closed by the server
            sent += 1000
            XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/?HOST_INFO").status, 200, "others are served meanwhile")
        }
        print("a WebSocket client that never reads: cut off after \(sent) \(what) in \(String(format: "%.2f", Date().timeIntervalSince(began))) s")
        wait("the connection to be let go") { server.openConnections == 0 }
    }

    /// The whole namespace as JSON takes long to make; ten clients asking for it at once do not
    /// hold up a WebSocket: its ping is answered before their answers are all made.
    func testAWebSocketIsServedWhileTreesAreMade() throws {
        try start()
        let socket = try openWebSocket()
        let askers = try (0..<10).map { _ in try RawTCPConnection(port: port) }
        for asker in askers { asker.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n") }
        socket.send(WebSocketCodecTests.clientFrame(9, Array("now".utf8)))
        XCTAssertEqual(try socket.read()?.opcode, 10)
        let answered = askers.filter { $0.isReadable(within: 0) }.count
        print("trees answered when the pong came: \(answered) of 10")
        XCTAssertLessThan(answered, 10)
        for asker in askers { XCTAssertTrue(asker.readToClose(timeout: 30).closed) }
    }

    /// Stopping the server sends each WebSocket a close frame (1001) and closes it, without
    /// waiting for the client's answer.
    func testStopClosesAWebSocketWithGoingAway() throws {
        try start()
        let socket = try openWebSocket()
        server.stop()
        let close = try XCTUnwrap(try socket.read())
        XCTAssertEqual(close.opcode, 8)
        XCTAssertEqual(Array(close.payload.prefix(2)), [0x03, 0xE9], "1001: going away")
        XCTAssertTrue(socket.connection.readToClose(timeout: 5).closed)
        server = nil
    }
}

/// A WebSocket at the level of frames: the handshake sent by hand, frames in and out as bytes.
final class RawWebSocket {
    let connection: RawTCPConnection
    private(set) var handshake = ""
    private var pending: [UInt8] = []

    init(port: Int) throws {
        connection = try RawTCPConnection(port: port)
        connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        while pending.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard try fill() else { break }
        }
        if let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
            handshake = String(decoding: pending[..<end.upperBound], as: UTF8.self)
            pending.removeSubrange(..<end.upperBound)
        }
    }

    func send(_ bytes: [UInt8]) { connection.send(bytes) }

    /// The next frame the server sends (opcode and payload), or nil if it closes or is silent for 5 s.
    func read() throws -> (opcode: UInt8, payload: [UInt8])? {
        while true {
            if pending.count >= 2 {
                var length = Int(pending[1] & 0x7F), header = 2
                if length == 126, pending.count >= 4 { length = Int(pending[2]) << 8 | Int(pending[3]); header = 4 }
                if length == 127, pending.count >= 10 { length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }; header = 10 }
                if length < 126 || header > 2, pending.count >= header + length {
                    defer { pending.removeSubrange(..<(header + length)) }
                    return (pending[0] & 0x0F, Array(pending[header..<(header + length)]))
                }
            }
            guard try fill() else { return nil }
        }
    }

    private func fill() throws -> Bool {
        guard connection.isReadable(within: 5) else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        pending += buffer[0..<n]
        return true
    }
}
