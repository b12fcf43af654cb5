import EntrainControl
import Foundation
import TestSupport
import XCTest

/// OSC over TCP: both framings, replies and feedback down the same connection.
final class OSCTCPTests: LiveClientTestCase {
    typealias Stream = OSCTCPStream

    func testBothFramingsControlTheClientAndGetReplies() throws {
        let udpPort = freePort(), tcpPort = freePort()
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--osc-port", "\(udpPort)", "--osc-tcp", "\(tcpPort)"], recorder: rec)
        defer { stopClient(client) }

        let framed = try Stream(port: tcpPort)
        framed.write(Stream.lengthPrefixed(OSCMessage("/entrain/carrier", [.float(345)])))
        framed.write(Stream.lengthPrefixed(OSCMessage("/entrain/carrier")))
        framed.write(Stream.lengthPrefixed(OSCMessage("/ping", [.int32(1)])))
        let replies = Stream.messages(lengthPrefixed: framed.read(seconds: 1))
        XCTAssertTrue(replies.contains(OSCMessage("/entrain/carrier", [.float(345)])), "\(replies)")
        XCTAssertTrue(replies.contains(OSCMessage("/pong", [.int32(1)])))

        // SLIP (what TouchOSC sends over TCP); 0xC0 and 0xDB inside the payload must be escaped.
        let slip = try Stream(port: tcpPort)
        slip.write(Stream.slip(OSCMessage("/entrain/beat", [.float(Float(bitPattern: 0x40C0_DB00))])))  // ≈ 6.03, with 0xC0 and 0xDB bytes
        slip.write(Stream.slip(OSCMessage("/entrain/beat")))
        let stream = slip.read(seconds: 1)
        let frames = stream.split(separator: 0xC0).map { frame -> [UInt8] in
            var out: [UInt8] = [], escaped = false
            for b in frame { if escaped { out.append(b == 0xDC ? 0xC0 : 0xDB); escaped = false } else if b == 0xDB { escaped = true } else { out.append(b) } }
            return out
        }
        let slipReplies = frames.compactMap { try? OSCCodec.decode($0) }.flatMap { $0.map(\.message) }
        XCTAssertTrue(slipReplies.contains(OSCMessage("/entrain/beat", [.float(Float(bitPattern: 0x40C0_DB00))])), "\(slipReplies)")

        // Feedback down the connection.
        framed.inbound.removeAll()
        framed.write(Stream.lengthPrefixed(OSCMessage("/osc/subscribe")))
        let dump = Stream.messages(lengthPrefixed: framed.read(seconds: 1))
        XCTAssertTrue(dump.contains(OSCMessage("/entrain/carrier", [.float(345)])))
        XCTAssertTrue(dump.contains { $0.address == "/meter/entrainment" })

        // A broken stream gets /error and is closed; the client plays on.
        let broken = try Stream(port: tcpPort)
        broken.write([0x7F, 0xFF, 0xFF, 0xFF])
        let last = Stream.messages(lengthPrefixed: broken.read(seconds: 1))
        XCTAssertEqual(last.first?.address, "/error")
        XCTAssertTrue(client.process.isRunning)
    }
}
