import EntrainControl
import Foundation
import TestSupport
import XCTest

/// Idle TCP connections cannot lock newcomers out: idle ones are closed after a timeout, and a
/// newcomer at the cap closes one that never sent anything, else the one idle longest.
final class OSCTCPLimitsTests: XCTestCase {
    func testANewcomerAtTheCapClosesAnIdleOneAndIdleConnectionsTimeOut() throws {
        let fixture = try OSCServerFixture {
            $0.maximumConnections = 3
            $0.tcpIdleTimeout = 1.5
        }
        func ping(_ stream: OSCTCPStream, _ n: Int32) -> Bool {
            stream.send(OSCMessage("/ping", [.int32(n)]))
            stream.read(seconds: 0.3)
            return stream.messages.contains(OSCMessage("/pong", [.int32(n)]))
        }
        let early = try OSCTCPStream(port: fixture.tcpPort)
        XCTAssertTrue(ping(early, 0))
        let silent = try OSCTCPStream(port: fixture.tcpPort)
        let talker = try OSCTCPStream(port: fixture.tcpPort)
        XCTAssertTrue(ping(talker, 0))

        // Three open: a fourth still gets in. The one closed for it is the one that never sent
        // anything, though the early one has been idle longer.
        let newcomer = try OSCTCPStream(port: fixture.tcpPort)
        XCTAssertTrue(ping(newcomer, 1), "the newcomer is served")
        silent.read(seconds: 0.5)
        XCTAssertTrue(silent.isClosed, "the connection that never sent was closed")
        XCTAssertTrue(silent.messages.first?.arguments.last?.text?.contains("to make room for a new one") ?? false, "\(silent.messages)")
        XCTAssertTrue(ping(early, 1), "the early one is still open")

        // Past the idle timeout, only the connections that kept sending are open.
        for i in 2..<22 {
            talker.send(OSCMessage("/ping", [.int32(Int32(i))]))
            newcomer.send(OSCMessage("/ping", [.int32(Int32(i))]))
            early.read(seconds: 0.1)
        }
        XCTAssertTrue(early.isClosed, "silent for more than 1.5 s: closed")
        XCTAssertTrue(early.messages.last?.arguments.last?.text?.contains("no packet for 1.5 s") ?? false, "\(early.messages)")
        XCTAssertTrue(ping(talker, 99), "a connection that sends stays open")
        XCTAssertTrue(ping(newcomer, 99))
    }

    /// A length prefix of 0 is named as such (it used to be "0 bytes is over the limit").
    func testAZeroLengthPrefixIsAClearError() throws {
        let fixture = try OSCServerFixture()
        let stream = try OSCTCPStream(port: fixture.tcpPort)
        stream.write([0, 0, 0, 0])
        stream.read(seconds: 1)
        let reason = stream.messages.first { $0.address == "/error" }?.arguments.last?.text ?? ""
        XCTAssertTrue(reason.contains("a length prefix of 0 bytes"), reason)
        XCTAssertFalse(reason.contains("over the"), reason)
        XCTAssertTrue(stream.isClosed)
    }
}
