@testable import EntrainDiscovery
import XCTest

/// The frame reader and the message assembler against RFC 6455's examples (§5.7) and against
/// what a client must not send: each refusal carries the close code the server answers with.
final class WebSocketCodecTests: XCTestCase {
    /// A client's frame: masked with `mask`, the length in the shortest form (or `longLength`).
    static func clientFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D],
                            masked: Bool = true, reserved: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | reserved | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        guard masked else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// Every event `bytes` makes, fed `chunk` bytes at a time, and the failure that ended them, if any.
    func events(_ bytes: [UInt8], chunk: Int = .max, maxMessage: Int = 64 * 1024) -> (events: [WebSocketEvent], failure: WebSocketFailure?) {
        var reader = WebSocketFrameReader(maxPayload: maxMessage)
        var assembler = WebSocketMessageAssembler(maxMessage: maxMessage)
        var events: [WebSocketEvent] = []
        var offset = 0
        while offset < bytes.count {
            let end = offset + min(chunk, bytes.count - offset)
            reader.feed(bytes[offset..<end])
            offset = end
            do throws(WebSocketFailure) {
                while let frame = try reader.next() {
                    if let event = try assembler.take(frame) { events.append(event) }
                }
            } catch {
                return (events, error)
            }
        }
        return (events, nil)
    }

    func testTheMaskedExampleOfRFC6455() {
        let hello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        XCTAssertEqual(events(hello).events, [.text("Hello")])
        XCTAssertEqual(events(hello, chunk: 1).events, [.text("Hello")], "a byte at a time")
        XCTAssertEqual(Self.clientFrame(1, Array("Hello".utf8)), hello)
    }

    /// The server's frames are unmasked, in the examples' exact bytes, at each length form.
    func testTheServersFramesAreTheExamplesBytes() {
        XCTAssertEqual(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)).encoded(), [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        XCTAssertEqual(WebSocketFrame(opcode: .pong, payload: Array("Hello".utf8)).encoded(), [0x8A, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        XCTAssertEqual(Array(WebSocketFrame(opcode: .binary, payload: Array(repeating: 0, count: 256)).encoded().prefix(4)), [0x82, 0x7E, 0x01, 0x00])
        XCTAssertEqual(Array(WebSocketFrame(opcode: .binary, payload: Array(repeating: 0, count: 65_536)).encoded().prefix(10)),
                       [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        XCTAssertEqual(WebSocketFrame(opcode: .binary, payload: Array(repeating: 0, count: 125)).encoded().count, 127)
        XCTAssertEqual(WebSocketFrame(opcode: .binary, payload: Array(repeating: 0, count: 65_535)).encoded().count, 65_539)
    }

    /// A message in three fragments with a ping between them: the ping is answered at once, the
    /// message comes whole; each length form, byte by byte too.
    func testFragmentsAreJoinedAndControlFramesMayComeBetween() {
        let long = Array(repeating: UInt8(ascii: "x"), count: 300)
        let bytes = Self.clientFrame(1, Array("Hel".utf8), fin: false) + Self.clientFrame(9, Array("ping".utf8))
            + Self.clientFrame(0, long, fin: false, mask: [1, 2, 3, 4]) + Self.clientFrame(10, []) + Self.clientFrame(0, Array("lo".utf8))
            + Self.clientFrame(2, Array(repeating: 7, count: 70_000), mask: [9, 8, 7, 6])
        let expected: [WebSocketEvent] = [.ping(Array("ping".utf8)), .pong([]), .text("Hel" + String(repeating: "x", count: 300) + "lo"),
                                          .binary(Array(repeating: 7, count: 70_000))]
        XCTAssertEqual(events(bytes, maxMessage: 100_000).events, expected)
        XCTAssertEqual(events(bytes, chunk: 1, maxMessage: 100_000).events, expected)
        XCTAssertEqual(events(bytes, chunk: 7, maxMessage: 100_000).events, expected)
    }

    /// A hostile length is refused (1009) from the header alone, before its payload is held.
    func testAnOversizedFrameOrMessageIsRefusedWithTooBig() {
        var reader = WebSocketFrameReader(maxPayload: 65_536)
        reader.feed([0x82, 0xFF, 0, 0, 0, 0x40, 0, 0, 0, 0])  // 1 GiB announced
        XCTAssertThrowsError(try reader.next()) { XCTAssertEqual(($0 as? WebSocketFailure)?.code, 1009) }
        XCTAssertEqual(events(Self.clientFrame(2, Array(repeating: 0, count: 65_537))).failure?.code, 1009)
        XCTAssertNil(events(Self.clientFrame(2, Array(repeating: 0, count: 65_536))).failure, "64 KiB exactly is allowed")
        // Fragments each under the limit, over it together.
        let pieces = (0..<5).flatMap { Self.clientFrame($0 == 0 ? 2 : 0, Array(repeating: 0, count: 16_384), fin: $0 == 4) }
        XCTAssertEqual(events(pieces).failure?.code, 1009)
    }

    /// What a client must not send, each answered with 1002 (protocol error), or 1007 for text that is not UTF-8.
    func testWhatRFC6455ForbidsClosesTheConnection() {
        let cases: [(String, [UInt8], UInt16)] = [
            ("an unmasked frame", Self.clientFrame(1, Array("hi".utf8), masked: false), 1002),
            ("opcode 3 (reserved)", Self.clientFrame(3, []), 1002),
            ("opcode 11 (reserved control)", Self.clientFrame(11, []), 1002),
            ("RSV1 without an extension", Self.clientFrame(1, Array("hi".utf8), reserved: 0x40), 1002),
            ("a fragmented ping", Self.clientFrame(9, [], fin: false), 1002),
            ("a ping of 126 bytes", Self.clientFrame(9, Array(repeating: 0, count: 126)), 1002),
            ("a continuation with nothing to continue", Self.clientFrame(0, Array("x".utf8)), 1002),
            ("a new message inside a fragmented one", Self.clientFrame(1, Array("a".utf8), fin: false) + Self.clientFrame(2, [1]), 1002),
            ("text that is not UTF-8", Self.clientFrame(1, [0xC3, 0x28]), 1007),
            ("text split inside a character, then not UTF-8", Self.clientFrame(1, [0xE2, 0x82], fin: false) + Self.clientFrame(0, [0x28]), 1007),
            ("a close frame of one byte", Self.clientFrame(8, [3]), 1002),
            ("close code 1005 (never sent)", Self.clientFrame(8, [0x03, 0xED]), 1002),
            ("close code 999", Self.clientFrame(8, [0x03, 0xE7]), 1002),
            ("a close reason that is not UTF-8", Self.clientFrame(8, [0x03, 0xE8, 0xFF]), 1007),
        ]
        for (what, bytes, code) in cases {
            XCTAssertEqual(events(bytes).failure?.code, code, what)
        }
        // A character split across fragments is fine once whole.
        XCTAssertEqual(events(Self.clientFrame(1, [0xE2, 0x82], fin: false) + Self.clientFrame(0, [0xAC])).events, [.text("€")])
    }

    func testCloseFramesReadAndWritten() {
        XCTAssertEqual(events(Self.clientFrame(8, [])).events, [.close(code: nil, reason: "")])
        XCTAssertEqual(events(Self.clientFrame(8, [0x03, 0xE8] + Array("bye".utf8))).events, [.close(code: 1000, reason: "bye")])
        XCTAssertEqual(events(Self.clientFrame(8, [0x0F, 0xA0])).events, [.close(code: 4000, reason: "")], "application codes are allowed")
        let long = WebSocketMessageAssembler.closeFrame(1009, String(repeating: "é", count: 100))
        XCTAssertLessThanOrEqual(long.payload.count, 125, "a control frame holds 125 bytes")
        XCTAssertNotNil(String(validating: long.payload.dropFirst(2), as: UTF8.self), "cut between characters")
        XCTAssertEqual(Array(long.payload.prefix(2)), [0x03, 0xF1])
    }
}
