/// One WebSocket frame (RFC 6455 §5.2), unmasked: the reader takes the client's mask off, and a
/// server's frames carry none (§5.1).
struct WebSocketFrame: Equatable {
    enum Opcode: UInt8 {
        case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
        /// Close, ping and pong: short, never fragmented, allowed between a message's fragments.
        var isControl: Bool { rawValue >= 8 }
    }

    var fin = true
    var opcode: Opcode
    var payload: [UInt8]

    /// The frame as a server sends it: FIN and opcode, the length in the shortest form, no mask.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        bytes.reserveCapacity(payload.count + 10)
        if payload.count < 126 {
            bytes.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
        }
        return bytes + payload
    }
}

/// Why the server closes a WebSocket: a close frame's status code (RFC 6455 §7.4.1) and a reason
/// for the log and the frame.
struct WebSocketFailure: Error, Equatable {
    let code: UInt16
    let reason: String

    static let normal: UInt16 = 1000
    static let goingAway: UInt16 = 1001
    static let protocolError: UInt16 = 1002
    static let invalidData: UInt16 = 1007
    static let tooBig: UInt16 = 1009

    static func protocolError(_ reason: String) -> WebSocketFailure { WebSocketFailure(code: protocolError, reason: reason) }
}

/// Cuts a client's bytes into frames as they arrive. Refuses what RFC 6455 forbids a client to
/// send (an unmasked frame, reserved bits or opcodes, a long or fragmented control frame) and a
/// payload over `maxPayload` before any of it is held, so a hostile length costs nothing.
struct WebSocketFrameReader {
    let maxPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0

    init(maxPayload: Int) { self.maxPayload = maxPayload }

    /// Bytes held that are not yet a whole frame.
    var held: Int { buffer.count - start }

    mutating func feed(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {  // drop what was read, now and then rather than per frame
            buffer.removeSubrange(..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, nil until one has arrived, or why the connection must close.
    mutating func next() throws(WebSocketFailure) -> WebSocketFrame? {
        guard held >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw .protocolError("reserved bits set (no extension was agreed)") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else { throw .protocolError("unknown opcode \(first & 0x0F)") }
        let fin = first & 0x80 != 0
        guard second & 0x80 != 0 else { throw .protocolError("an unmasked frame from a client") }
        var length = UInt64(second & 0x7F)
        var headerLength = 2
        if length == 126 || length == 127 {
            let extra = length == 126 ? 2 : 8
            guard held >= 2 + extra else { return nil }
            length = buffer[(start + 2)..<(start + 2 + extra)].reduce(0) { $0 << 8 | UInt64($1) }
            guard length >> 63 == 0 else { throw .protocolError("a length with its top bit set") }
            headerLength += extra
        }
        if opcode.isControl {
            guard fin else { throw .protocolError("a fragmented control frame") }
            guard length <= 125 else { throw .protocolError("a control frame over 125 bytes") }
        }
        guard length <= UInt64(maxPayload) else {
            throw WebSocketFailure(code: WebSocketFailure.tooBig, reason: "a frame of \(length) bytes, over \(maxPayload)")
        }
        let payloadStart = start + headerLength + 4
        guard buffer.count - payloadStart >= Int(length) else { return nil }
        let mask = buffer[(payloadStart - 4)..<payloadStart].map { $0 }
        var payload = Array(buffer[payloadStart..<(payloadStart + Int(length))])
        for i in payload.indices { payload[i] ^= mask[i & 3] }
        start = payloadStart + Int(length)
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
        }
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }
}
