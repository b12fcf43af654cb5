import EntrainControl
import Foundation
import TestSupport
import XCTest

/// OSC over TCP: both framings, replies and feedback down the same connection.
final class OSCTCPTests: LiveClientTestCase {
    final class Stream {
        let fd: Int32
        var inbound: [UInt8] = []
        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let deadline = Date().addingTimeInterval(10)
            while !Loopback.connect(fd, port: port) {
                guard Date() < deadline else { throw TestSupportError.timeout("TCP connect") }
                usleep(50_000)
            }
        }
        deinit { close(fd) }
        func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } }
        func read(seconds: Double) -> [UInt8] {
            let deadline = Date().addingTimeInterval(seconds)
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while Date() < deadline {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 10) > 0 else { continue }
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                inbound += chunk[0..<n]
            }
            return inbound
        }
    }

    static func lengthPrefixed(_ message: OSCMessage) -> [UInt8] {
        let bytes = OSCCodec.encode(message)
        return withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init) + bytes
    }

    static func slip(_ message: OSCMessage) -> [UInt8] {
        var out: [UInt8] = [0xC0]
        for byte in OSCCodec.encode(message) {
            switch byte {
            case 0xC0: out += [0xDB, 0xDC]
            case 0xDB: out += [0xDB, 0xDD]
            default: out.append(byte)
            }
        }
        return out + [0xC0]
    }

    /// Cut a length-prefixed stream into messages.
    static func messages(lengthPrefixed stream: [UInt8]) -> [OSCMessage] {
        var out: [OSCMessage] = [], offset = 0
        while stream.count - offset >= 4 {
            let size = Int(stream[offset]) << 24 | Int(stream[offset + 1]) << 16 | Int(stream[offset + 2]) << 8 | Int(stream[offset + 3])
            guard stream.count - offset - 4 >= size else { break }
            out += ((try? OSCCodec.decode(Array(stream[(offset + 4)..<(offset + 4 + size)]))) ?? []).map(\.message)
            offset += 4 + size
        }
        return out
    }

    func testBothFramingsControlTheClientAndGetReplies() throws {
        let udpPort = freePort(), tcpPort = freePort()
        let rec = try recorder(seconds: 0.1)
        let client = try startClient(["--osc-port", "\(udpPort)", "--osc-tcp", "\(tcpPort)"], recorder: rec)
        defer { stopClient(client) }

        let framed = try Stream(port: tcpPort)
        framed.write(Self.lengthPrefixed(OSCMessage("/entrain/carrier", [.float(345)])))
        framed.write(Self.lengthPrefixed(OSCMessage("/entrain/carrier")))
        framed.write(Self.lengthPrefixed(OSCMessage("/ping", [.int32(1)])))
        let replies = Self.messages(lengthPrefixed: framed.read(seconds: 1))
        XCTAssertTrue(replies.contains(OSCMessage("/entrain/carrier", [.float(345)])), "\(replies)")
        XCTAssertTrue(replies.contains(OSCMessage("/pong", [.int32(1)])))

        // SLIP (what TouchOSC sends over TCP); 0xC0 and 0xDB inside the payload must be escaped.
        let slip = try Stream(port: tcpPort)
        slip.write(Self.slip(OSCMessage("/entrain/beat", [.float(Float(bitPattern: 0x40C0_DB00))])))  // ≈ 6.03, with 0xC0 and 0xDB bytes
        slip.write(Self.slip(OSCMessage("/entrain/beat")))
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
        framed.write(Self.lengthPrefixed(OSCMessage("/osc/subscribe")))
        let dump = Self.messages(lengthPrefixed: framed.read(seconds: 1))
        XCTAssertTrue(dump.contains(OSCMessage("/entrain/carrier", [.float(345)])))
        XCTAssertTrue(dump.contains { $0.address == "/meter/entrainment" })

        // A broken stream gets /error and is closed; the client plays on.
        let broken = try Stream(port: tcpPort)
        broken.write([0x7F, 0xFF, 0xFF, 0xFF])
        let last = Self.messages(lengthPrefixed: broken.read(seconds: 1))
        XCTAssertEqual(last.first?.address, "/error")
        XCTAssertTrue(client.process.isRunning)
    }
}
