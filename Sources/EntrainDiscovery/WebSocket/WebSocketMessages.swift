/// What a client sent, once frames are joined: a whole message, or a control frame.
enum WebSocketEvent: Equatable {
    case text(String)
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// The client closes: its status code (nil when it gave none) and reason.
    case close(code: UInt16?, reason: String)
}

/// Joins a client's data frames into messages (RFC 6455 §5.4): a message is one frame, or a
/// first frame and continuations, with control frames allowed between them. A message over
/// `maxMessage` bytes, a continuation with nothing to continue, a new message before the last
/// one ended and text that is not UTF-8 end the connection.
struct WebSocketMessageAssembler {
    let maxMessage: Int
    private var partial: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?

    init(maxMessage: Int) { self.maxMessage = maxMessage }

    /// The event `frame` completes, nil when it is a fragment of a message still arriving.
    mutating func take(_ frame: WebSocketFrame) throws(WebSocketFailure) -> WebSocketEvent? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .text, .binary:
            guard partial == nil else { throw .protocolError("a new message before the last one's final fragment") }
            if frame.fin { return try Self.message(frame.opcode, frame.payload) }
            partial = (frame.opcode, frame.payload)
            return nil
        case .continuation:
            guard case (let opcode, var bytes)? = partial else { throw .protocolError("a continuation frame with no message to continue") }
            guard bytes.count + frame.payload.count <= maxMessage else {
                partial = nil
                throw WebSocketFailure(code: WebSocketFailure.tooBig, reason: "a message over \(maxMessage) bytes")
            }
            partial = nil  // so the bytes are not copied when they grow
            bytes += frame.payload
            if frame.fin { return try Self.message(opcode, bytes) }
            partial = (opcode, bytes)
            return nil
        }
    }

    private static func message(_ opcode: WebSocketFrame.Opcode, _ bytes: [UInt8]) throws(WebSocketFailure) -> WebSocketEvent {
        guard opcode == .text else { return .binary(bytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw WebSocketFailure(code: WebSocketFailure.invalidData, reason: "a text message that is not UTF-8")
        }
        return .text(text)
    }

    /// A close frame's body: nothing, or a status code a peer may send and a UTF-8 reason (§5.5.1, §7.4).
    private static func close(_ payload: [UInt8]) throws(WebSocketFailure) -> WebSocketEvent {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .protocolError("a close frame of one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        // 1004–1006 and 1015 are reserved for reports, never sent; below 1000 and 1016–2999 are unassigned.
        guard (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code) else {
            throw .protocolError("close code \(code)")
        }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw WebSocketFailure(code: WebSocketFailure.invalidData, reason: "a close reason that is not UTF-8")
        }
        return .close(code: code, reason: reason)
    }

    /// A close frame from the server: `code` and a reason cut to fit the 125 bytes a control frame holds.
    static func closeFrame(_ code: UInt16, _ reason: String = "") -> WebSocketFrame {
        var bytes = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var cut = Substring(reason)
        while cut.utf8.count > 123 { cut = cut.dropLast() }
        bytes += Array(cut.utf8)
        return WebSocketFrame(opcode: .close, payload: bytes)
    }
}
