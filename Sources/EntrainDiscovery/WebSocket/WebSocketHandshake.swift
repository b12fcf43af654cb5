import Foundation

/// The opening handshake's server side (RFC 6455 §4.2): which requests ask for a WebSocket,
/// whether they ask correctly, and the `101` that accepts one.
enum WebSocketHandshake {
    /// The GUID RFC 6455 §1.3 appends to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Whether `head` asks to become a WebSocket (`Upgrade: websocket`).
    static func isRequested(_ head: RequestHead) -> Bool { head.lists("upgrade", "websocket") }

    /// The `101 Switching Protocols` for a well-formed request, or the refusal (status, reason,
    /// and the fields to send with it) for one that is not.
    static func answer(_ head: RequestHead) -> Result<HTTPResponse, Refusal> {
        guard head.method == "GET", head.version == "HTTP/1.1" else {
            return .failure(Refusal(reason: "a WebSocket is opened with GET over HTTP/1.1"))
        }
        guard head.lists("connection", "upgrade") else { return .failure(Refusal(reason: "Upgrade without Connection: Upgrade")) }
        guard head.values("sec-websocket-version") == ["13"] else {
            return .failure(Refusal(reason: "Sec-WebSocket-Version must be 13", fields: [("Sec-WebSocket-Version", "13")]))
        }
        let keys = head.values("sec-websocket-key")
        guard keys.count == 1, let key = keys.first, Data(base64Encoded: key)?.count == 16 else {
            return .failure(Refusal(reason: "Sec-WebSocket-Key must be 16 bytes in base64"))
        }
        return .success(HTTPResponse("101 Switching Protocols",
                                     headers: [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept(key))]))
    }

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64 of the SHA-1 of the key and the GUID.
    static func accept(_ key: String) -> String { Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString() }

    struct Refusal: Error {
        let reason: String
        var fields: [(name: String, value: String)] = []
    }
}
