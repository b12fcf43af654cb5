import EntrainControl
import NIOCore

/// The first handler of every discovery connection, before any HTTP decoding. It admits the
/// connection under the limits (per address, in all), gives the first request's head
/// `headDeadline` to arrive whole, and holds its bytes until they have been judged: the
/// `--osc-allow` list, the size of the head, the HTTP version, `Host` and `Origin`
/// (`RequestPolicy`). A refusal is a status line, a log line and a close, never silence; what
/// passes goes on to Hummingbird untouched, and the guard then only counts the connection
/// until it closes. Later requests on a kept-alive connection are judged by the router.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    struct Rules: Sendable {
        let limits: ConnectionLimits
        let policy: RequestPolicy
        let allows: @Sendable (EntrainControl.SocketAddress) -> Bool
        let log: RefusalLog
    }

    private enum Phase {
        case starting
        case reading(FirstRequestHeadReader)
        case passing
        /// Refused: the answer is written and our side shut; what still arrives is dropped until
        /// the peer closes or `lingerLimit` passes (so the peer reads the answer, not a reset).
        case lingering
    }

    private let rules: Rules
    private var phase = Phase.starting
    private var peer: EntrainControl.SocketAddress?
    private var admitted = false
    private var timer: Scheduled<Void>?
    static let lingerLimit: TimeAmount = .seconds(2)

    init(rules: Rules) { self.rules = rules }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard case .starting = phase else { return }
        phase = .reading(FirstRequestHeadReader())
        peer = DiscoveryServer.peer(context.channel.remoteAddress)
        let address = peer?.host ?? "an unknown address"
        if let reason = rules.limits.admit(context.channel, peer: address) {
            rules.log.refused("limit", "OSCQuery: refused a connection from \(address): \(reason)")
            return refuse(context, "503 Service Unavailable", reason, log: false, linger: false)
        }
        admitted = true
        let deadline = rules.limits.numbers.headDeadline
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: deadline) { [self] in
            guard case .reading = phase else { return }
            refuse(context, "408 Request Timeout", "no whole request within \(deadline.nanoseconds / 1_000_000_000) s")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .passing: context.fireChannelRead(data)
        case .starting, .lingering: break
        case .reading(var reader):
            phase = .starting  // so the reader's bytes are not copied when it grows
            let reading = reader.feed(unwrapInboundIn(data).readableBytesView)
            phase = .reading(reader)
            switch reading {
            case .incomplete: break
            case .refused(let status, let reason): refuse(context, status, reason)
            case .complete(let head): judge(head, bytes: reader.bytes, context)
            }
        }
    }

    private func judge(_ head: FirstRequestHead, bytes: [UInt8], _ context: ChannelHandlerContext) {
        guard let peer, rules.allows(peer) else { return refuse(context, "403 Forbidden", "not in --osc-allow") }
        let hosts = head.values("host"), origins = head.values("origin")
        guard hosts.count <= 1, origins.count <= 1 else { return refuse(context, "400 Bad Request", "more than one Host or Origin header") }
        if let reason = rules.policy.refusal(host: hosts.first, origin: origins.first, port: context.channel.localAddress?.port ?? 0) {
            return refuse(context, "403 Forbidden", reason)
        }
        timer?.cancel()
        phase = .passing
        context.fireChannelRead(wrapInboundOut(ByteBuffer(bytes: bytes)))
    }

    /// Answers `status` with `reason` as its text, shuts our side, and closes once the peer
    /// has read it (or after `lingerLimit`); a connection over the limits is closed at once.
    private func refuse(_ context: ChannelHandlerContext, _ status: String, _ reason: String, log: Bool = true, linger: Bool = true) {
        timer?.cancel()
        phase = .lingering
        if log { rules.log.refused(status, "OSCQuery: \(status) to \(peer.map { "\($0)" } ?? "a client"): \(reason)") }
        let body = reason + "\n"
        let text = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        context.writeAndFlush(NIOAny(ByteBuffer(string: text)), promise: nil)
        guard linger else { return context.close(promise: nil) }
        context.close(mode: .output, promise: nil)
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.lingerLimit) { context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ChannelShouldQuiesceEvent:
            // Shutting down: a connection still waiting for its first request has nothing to finish.
            if case .passing = phase { context.fireUserInboundEventTriggered(event) } else { context.close(promise: nil) }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        if admitted {
            admitted = false
            rules.limits.release(context.channel, peer: peer?.host ?? "an unknown address")
        }
        context.fireChannelInactive()
    }
}
