@testable import EntrainDiscovery
import Foundation
import TestSupport
import XCTest

/// What one client or a crowd of them can take from the discovery server: a request's head has
/// 10 s to arrive, 64 KiB at most, in HTTP/1.x; 32 connections per address, 256 in all. Every
/// refusal is a status line and a close, never silence. The documented defaults, over real
/// sockets from several loopback addresses.
final class DiscoveryLimitsTests: DiscoveryServerTestCase {
    /// Slowloris: half a head held open is answered 408 and closed after the 10 s deadline.
    func testAHeadThatNeverEndsIsClosedAtTheDeadline() throws {
        try start()
        let connection = try RawTCPConnection(port: port)
        let sent = Date()
        connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
        let (bytes, closed) = connection.readToClose(timeout: 30)
        let waited = Date().timeIntervalSince(sent)
        print("half a head: closed after \(String(format: "%.2f", waited)) s")
        XCTAssertTrue(closed)
        XCTAssertEqual(RawTCPConnection.status(bytes), 408)
        XCTAssertGreaterThan(waited, 9, "not before the deadline")
        wait("the connection to be let go") { server.openConnections == 0 }
    }

    /// A 1 MB header gets 431 and a close; `HTTP/9.9` gets 505 and a close; a request line that
    /// is not HTTP gets 400.
    func testAnOversizedHeadAndAnUnknownVersionAreAnsweredThenClosed() throws {
        try start()
        let big = try RawTCPConnection(port: port)
        let port = port
        let sender = Thread {  // the server stops reading at 64 KiB; the rest may never be taken
            big.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: " + String(repeating: "a", count: 1_000_000) + "\r\n\r\n")
        }
        sender.start()
        let (bytes, closed) = big.readToClose(timeout: 10)
        XCTAssertEqual(RawTCPConnection.status(bytes), 431, String(decoding: bytes, as: UTF8.self))
        XCTAssertTrue(closed)

        for (request, status) in [("GET / HTTP/9.9\r\nHost: 127.0.0.1:\(port)\r\n\r\n", 505),
                                  ("GET / HTTP/2.0\r\n", 505),
                                  ("HELLO\r\n\r\n", 400),
                                  ("GET /\(String(repeating: "x", count: 10_000)) HTTP/1.1\r\n", 414)] {
            let connection = try RawTCPConnection(port: port)
            connection.send(request)
            let (bytes, closed) = connection.readToClose(timeout: 10)
            XCTAssertEqual(RawTCPConnection.status(bytes), status, request.prefix(40).description)
            XCTAssertTrue(closed, request.prefix(40).description)
        }
        wait("every connection to be closed") { server.openConnections == 0 }
        XCTAssertTrue(log.contains("505 HTTP Version Not Supported"), "\(log.all)")
    }

    /// 40 silent connections from one address: 32 are held, the other 8 are refused (503) and
    /// closed; another address is still served.
    func testOneAddressHoldsAtMost32Connections() throws {
        try start()
        let connections = try (0..<40).map { _ in try RawTCPConnection(port: port) }
        wait("32 connections held") { server.openConnections == 32 }
        wait("8 refused") { connections.filter { $0.isReadable(within: 0) }.count >= 8 }
        var refused = 0
        for connection in connections where connection.isReadable(within: 0) {
            let (bytes, closed) = connection.readToClose(timeout: 2)
            XCTAssertTrue(closed)
            XCTAssertEqual(RawTCPConnection.status(bytes), 503)
            refused += 1
        }
        XCTAssertEqual(refused, 8)
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/?HOST_INFO", from: "127.0.0.2").status, 200, "another address is served")
        XCTAssertTrue(log.contains("the most from one address"), "\(log.all)")
        withExtendedLifetime(connections) {}
    }

    /// 32 connections from each of 9 addresses: 256 are held in all, the rest refused; when
    /// the crowd leaves, the server serves again.
    func testAtMost256ConnectionsInAll() throws {
        try start()
        var crowd: [RawTCPConnection] = []
        for peer in 2...10 { crowd += try (0..<32).map { _ in try RawTCPConnection(port: port, from: "127.0.0.\(peer)") } }
        wait("256 connections held") { server.openConnections == 256 }
        let late = try RawTCPConnection(port: port, from: "127.0.0.11")
        let (bytes, closed) = late.readToClose(timeout: 5)
        XCTAssertEqual(RawTCPConnection.status(bytes), 503)
        XCTAssertTrue(closed)
        XCTAssertEqual(server.openConnections, 256)
        crowd = []
        wait("the crowd to be gone") { server.openConnections == 0 }
        XCTAssertEqual(try HTTPTestClient.get(port: port, path: "/?HOST_INFO").status, 200)
    }

    /// The total leaves file descriptors for files: with a soft limit of 300 and 40 open, at
    /// most 132 connections (300 − 40 − 128 kept free).
    func testTheTotalKeepsFileDescriptorsInReserve() {
        XCTAssertEqual(ConnectionLimits(.init(), fileDescriptorLimit: 300, openNow: 40).total, 132)
        XCTAssertEqual(ConnectionLimits(.init(), fileDescriptorLimit: 20_000, openNow: 40).total, 256)
        XCTAssertEqual(ConnectionLimits(.init(), fileDescriptorLimit: 100, openNow: 40).total, 1, "one at least")
    }

    /// Shutdown closes every connection, a half-open one too, and does not wait for it.
    func testStopClosesAHalfOpenConnectionAtOnce() throws {
        try start()
        let connection = try RawTCPConnection(port: port)
        connection.send("GET / HTTP/1.1\r\nHost: x\r\n")
        wait("the connection to be held") { server.openConnections == 1 }
        let began = Date()
        server.stop()
        let took = Date().timeIntervalSince(began)
        print("stop with a half-open client: \(String(format: "%.3f", took)) s")
        XCTAssertLessThan(took, 2)
        XCTAssertTrue(connection.readToClose(timeout: 5).closed)
        server = nil
    }
}
