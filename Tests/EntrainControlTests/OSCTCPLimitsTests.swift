import EntrainControl
import Foundation
import TestSupport
import XCTest

/// Idle TCP connections cannot lock newcomers out: idle ones are closed after a timeout, and a
/// newcomer at the cap closes the one idle longest.
final class OSCTCPLimitsTests: XCTestCase {
    func testANewcomerAtTheCapClosesTheIdlestAndIdleConnectionsTimeOut() throws {
        let fixture = try OSCServerFixture {
            $0.maximumConnections = 3
            $0.tcpIdleTimeout = 1.5
        }
        let oldest = try OSCTCPStream(port: fixture.tcpPort)
        usleep(100_000)
        let quiet = try OSCTCPStream(port: fixture.tcpPort)
        let talker = try OSCTCPStream(port: fixture.tcpPort)
        usleep(100_000)
        talker.send(OSCMessage("/ping", [.int32(0)]))
        XCTAssertTrue(talker.read(seconds: 0.3).count > 0)

        // Three open, none sending: a fourth still gets in, and the one idle longest goes.
        let newcomer = try OSCTCPStream(port: fixture.tcpPort)
        newcomer.send(OSCMessage("/ping", [.int32(1)]))
        newcomer.read(seconds: 0.5)
        XCTAssertTrue(newcomer.messages.contains(OSCMessage("/pong", [.int32(1)])), "the newcomer is served")
        oldest.read(seconds: 0.5)
        XCTAssertTrue(oldest.isClosed, "the connection idle longest was closed")
        XCTAssertTrue(oldest.messages.first?.arguments.last?.text?.contains("idle longest") ?? false, "\(oldest.messages)")
        XCTAssertFalse(talker.isClosed)

        // Past the idle timeout, only the connections that kept sending are open.
        for i in 2..<22 {
            talker.send(OSCMessage("/ping", [.int32(Int32(i))]))
            newcomer.send(OSCMessage("/ping", [.int32(Int32(i))]))
            quiet.read(seconds: 0.1)
        }
        XCTAssertTrue(quiet.isClosed, "silent for more than 1.5 s: closed")
        XCTAssertTrue(quiet.messages.last?.arguments.last?.text?.contains("no packet for 1.5 s") ?? false, "\(quiet.messages)")
        talker.send(OSCMessage("/ping", [.int32(99)]))
        talker.read(seconds: 0.5)
        XCTAssertTrue(talker.messages.contains(OSCMessage("/pong", [.int32(99)])), "a connection that sends stays open")
        XCTAssertFalse(talker.isClosed)
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
