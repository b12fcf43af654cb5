import EntrainControl

/// A connection's WebSocket once its `101` is sent: frames in, joined into messages for the
/// session; pings answered, and sent every `pingInterval` (a client that leaves one unanswered
/// until the next is gone); the close handshake. What it sends goes through the connection's
/// outbox, whose limit cuts off a client that does not read.
final class WebSocketLink {
    /// The largest message (and frame) a client may send; a larger one closes the connection
    /// (1009) before its bytes are held. OSC packets and LISTEN commands are far smaller.
    static let maxMessage = 64 * 1024
    static let pingInterval = 30.0

    enum Outcome: Equatable {
        case goOn
        /// A close frame is queued: close the connection once it is sent. `problem`, for the log.
        case closeAfterSending(problem: String?)
    }

    private var frames = WebSocketFrameReader(maxPayload: maxMessage)
    private var messages = WebSocketMessageAssembler(maxMessage: maxMessage)
    private let outbox: Outbox
    private let session: WebSocketSession
    private(set) var nextPing: Double
    private var awaitingPong = false
    private var closing = false

    init(server: DiscoveryServer, peer: EntrainControl.SocketAddress, outbox: Outbox, wake: @escaping @Sendable () -> Void, now: Double) {
        self.outbox = outbox
        nextPing = now + Self.pingInterval
        session = WebSocketSession(server: server, peer: peer) { [outbox] item in
            let frame = switch item {
            case .osc(let bytes): WebSocketFrame(opcode: .binary, payload: bytes)
            case .text(let text): WebSocketFrame(opcode: .text, payload: Array(text.utf8))
            }
            let (added, wasEmpty) = outbox.add(frame.encoded(), limited: true)
            if wasEmpty || !added { wake() }  // the loop may not be watching this socket; or it must close it
        }
    }

    /// Bytes from the client.
    func received(_ bytes: some Collection<UInt8>) -> Outcome {
        guard !closing else { return .goOn }  // after our close frame, what arrives is dropped
        frames.feed(bytes)
        do throws(WebSocketFailure) {
            while let frame = try frames.next() {
                guard let event = try messages.take(frame) else { continue }
                switch event {
                case .text, .binary: session.received(event)
                // Under the outbox's limit like everything else: a client that pings and never reads is cut off too.
                case .ping(let payload): outbox.add(WebSocketFrame(opcode: .pong, payload: payload).encoded(), limited: true)
                case .pong: awaitingPong = false
                case .close(let code, _):
                    // The answer echoes the client's code (RFC 6455 §5.5.1); then the server closes first.
                    return close(code ?? WebSocketFailure.normal, "", problem: nil)
                }
            }
        } catch {
            return close(error.code, error.reason, problem: error.reason)
        }
        return .goOn
    }

    /// The ping that is due at `now`, or the close of a client that let the last one go unanswered.
    func pingIfDue(now: Double) -> Outcome {
        guard !closing, now >= nextPing else { return .goOn }
        if awaitingPong {
            let problem = "no answer to a ping within \(Int(Self.pingInterval)) s"
            return close(WebSocketFailure.goingAway, problem, problem: problem)
        }
        awaitingPong = true
        nextPing = now + Self.pingInterval
        outbox.add(WebSocketFrame(opcode: .ping, payload: []).encoded(), limited: true)
        return .goOn
    }

    func lookAtPaths() { if !closing { session.lookAtPaths() } }

    /// The server stops: a close frame (1001) if there is room for it, and the session ends.
    func goAway() -> Outcome {
        guard !closing else { return .goOn }
        return close(WebSocketFailure.goingAway, "the server is stopping", problem: nil)
    }

    /// The connection is gone (closed by either side): the session ends.
    func ended() {
        closing = true
        session.close()
    }

    private func close(_ code: UInt16, _ reason: String, problem: String?) -> Outcome {
        closing = true
        session.close()  // no more OSC for this client (the close frame is the last thing sent)
        outbox.add(WebSocketMessageAssembler.closeFrame(code, reason).encoded(), last: true)
        return .closeAfterSending(problem: problem)
    }
}
