import EntrainControl
import Glibc

/// What every connection is judged by: the limits, Host and Origin, the OSC allowlist, and
/// where refusals are logged.
struct ConnectionRules: Sendable {
    let limits: ConnectionLimits
    let policy: RequestPolicy
    let allows: @Sendable (EntrainControl.SocketAddress) -> Bool
    let log: RefusalLog
    /// The port we listen on (a request's Host must name it).
    let port: Int

    /// Why a request from `peer` with this head is refused (status and reason), or nil.
    func refusal(_ head: RequestHead, from peer: EntrainControl.SocketAddress) -> (status: String, reason: String)? {
        guard allows(peer) else { return ("403 Forbidden", "not in --osc-allow") }
        let hosts = head.values("host"), origins = head.values("origin")
        guard hosts.count <= 1, origins.count <= 1 else { return ("400 Bad Request", "more than one Host or Origin header") }
        if let reason = policy.refusal(host: hosts.first, origin: origins.first, port: port) { return ("403 Forbidden", reason) }
        return nil
    }
}

/// One accepted connection of the discovery server and where it stands: reading a request's
/// head (the first within `headDeadline` of connecting, each later one within `headDeadline` of
/// its first byte, and at most `idleTimeout` between them), answering it, a WebSocket after a
/// `101`, or closing. Every request is judged (`ConnectionRules`) before it is answered; a
/// refusal is a status line, a log line and a close, never silence; what passes is answered by
/// the `AnswerWorker`. Requests sent one after another without waiting (pipelined) are answered
/// in order, one at a time: the next is not read until the last answer has gone out, so a
/// client that sends and never reads holds one answer, not a heap of them. Lives on the
/// server's loop thread.
final class ServerConnection {
    let fd: Int32
    let peer: EntrainControl.SocketAddress
    let outbox = Outbox(limit: ServerConnection.outgoingLimit)
    /// Closed: the loop forgets it (and closes its descriptor).
    private(set) var finished = false
    /// When `expire` must act.
    private(set) var deadline: Double

    private enum Phase {
        /// Reading a request head; `started`: some of it has arrived.
        case http(RequestHeadReader, started: Bool)
        case webSocket(WebSocketLink)
        /// Our side is shut after the last answer; what still arrives is dropped until the peer
        /// closes or the deadline passes (so the peer reads the answer, not a reset).
        case lingering
    }

    private var phase = Phase.http(RequestHeadReader(), started: false)
    /// Bytes read after a request's head, waiting for its answer to go out (the next request).
    private var unread: [UInt8] = []
    private var answered = 0
    /// Close (shut our side, linger) once the outbox is empty.
    private var closeWhenSent = false
    /// What goes out is a refusal: it has `lingerLimit` to be read, however slowly the client takes it.
    private var refusing = false
    /// The answer the worker is making.
    private var awaiting: AnswerWorker.Pending?
    private let rules: ConnectionRules
    private let server: DiscoveryServer
    private let answers: AnswerWorker
    private let wake: @Sendable () -> Void

    /// A kept-alive connection with no request for this long is closed; so is one whose client
    /// takes no byte of an answer for this long.
    static let idleTimeout = 30.0
    /// How long a refused or finished connection waits for its peer to read the answer and close.
    static let lingerLimit = 2.0
    /// Bytes a WebSocket client may leave unread beyond what the system buffers for it.
    static let outgoingLimit = 256 * 1024

    init(fd: Int32, peer: EntrainControl.SocketAddress, rules: ConnectionRules, server: DiscoveryServer, answers: AnswerWorker,
         wake: @escaping @Sendable () -> Void, now: Double) {
        self.fd = fd
        self.peer = peer
        self.rules = rules
        self.server = server
        self.answers = answers
        self.wake = wake
        deadline = now + rules.limits.numbers.headDeadline
    }

    /// What to poll for: input while a request may be read (not while an answer is still
    /// going out), output while bytes wait.
    var events: Int16 {
        var events: Int16 = 0
        switch phase {
        case .http: if outbox.isEmpty && !closeWhenSent && awaiting == nil { events |= Int16(POLLIN) }
        case .webSocket, .lingering: events |= Int16(POLLIN)
        }
        if !outbox.isEmpty { events |= Int16(POLLOUT) }
        return events
    }

    var isWebSocket: Bool { if case .webSocket = phase { true } else { false } }

    // MARK: events from the loop

    /// Bytes the peer sent.
    func received(_ bytes: ArraySlice<UInt8>, now: Double) {
        switch phase {
        case .lingering: return
        case .webSocket(let link): follow(link.received(bytes), now: now)
        case .http:
            unread += bytes
            readRequests(now: now)
        }
        sendWaiting(now: now)
    }

    /// The peer closed its side, or the connection broke.
    func peerClosed() { finish() }

    /// The socket can take more.
    func writable(now: Double) { sendWaiting(now: now) }

    /// The deadline has passed.
    func expire(now: Double) {
        switch phase {
        case .http(_, let started):
            if closeWhenSent || !outbox.isEmpty || awaiting != nil { return finish() }  // an answer nobody takes
            if answered > 0 && !started { return finish() }  // idle between requests: nothing to say
            refuse("408 Request Timeout", "no whole request within \(Int(rules.limits.numbers.headDeadline)) s", now: now)
        case .webSocket(let link):
            if closeWhenSent { return finish() }  // our close frame, never read
            follow(link.pingIfDue(now: now), now: now)
            if !closeWhenSent { deadline = link.nextPing }
        case .lingering:
            return finish()
        }
        sendWaiting(now: now)
    }

    /// Every turn of the loop: whether an answer is made, whether a client let too much wait,
    /// and a WebSocket's look at the namespace (`lookAtPaths`: time for one).
    func tick(now: Double, lookAtPaths: Bool) {
        if let answer = awaiting, answer.isDone {
            awaiting = nil
            sendWaiting(now: now)
        }
        if outbox.overflowed {
            rules.log.refused("websocket", "OSCQuery: closed the WebSocket of \(peer): over \(Self.outgoingLimit / 1024) KiB waiting for it to read")
            return finish()
        }
        guard lookAtPaths, case .webSocket(let link) = phase, !closeWhenSent else { return }
        link.lookAtPaths()
        sendWaiting(now: now)
    }

    /// The server stops: a WebSocket gets its close frame if the socket takes it at once; then
    /// the connection is closed whatever the client does.
    func stop() {
        if case .webSocket(let link) = phase {
            _ = link.goAway()
            _ = outbox.flush(to: fd)
        }
        finish()
    }

    // MARK: HTTP

    /// Answers the requests read so far, in order, while nothing waits to go out.
    private func readRequests(now: Double) {
        while case .http(var reader, let started) = phase, outbox.isEmpty, !closeWhenSent, awaiting == nil, !unread.isEmpty {
            let bytes = unread
            unread = []
            phase = .http(RequestHeadReader(), started: false)  // so the reader's bytes are not copied when it grows
            switch reader.feed(bytes) {
            case .incomplete:
                if !started && answered > 0 { deadline = now + rules.limits.numbers.headDeadline }  // a later request begins
                phase = .http(reader, started: true)
            case .refused(let status, let reason):
                refuse(status, reason, now: now)
            case .complete(let head):
                unread = Array(reader.rest)
                answer(head, now: now)
            }
        }
    }

    private func answer(_ head: RequestHead, now: Double) {
        if let (status, reason) = rules.refusal(head, from: peer) { return refuse(status, reason, now: now) }
        answered += 1
        if WebSocketHandshake.isRequested(head) { return upgrade(head, now: now) }
        // We read no request bodies: a request that has one is answered, then the connection closes.
        let hasBody = !head.values("transfer-encoding").isEmpty || head.values("content-length").contains { $0 != "0" }
        let keepAlive = head.keepsAlive && !hasBody
        let tellKeepAlive = keepAlive && head.version == "HTTP/1.0"
        if head.method == "GET" || head.method == "HEAD" {
            awaiting = answers.submit(head, to: outbox, head: head.method == "HEAD", close: !keepAlive, keepAlive: tellKeepAlive)
        } else {
            let refusal = HTTPResponse("405 Method Not Allowed", headers: [("Allow", "GET, HEAD"), ("Content-Type", "text/plain; charset=utf-8")],
                                       body: Array("only GET and HEAD are answered here\n".utf8))
            outbox.add(refusal.serialized(close: !keepAlive, keepAlive: tellKeepAlive))
        }
        closeWhenSent = !keepAlive
        deadline = now + Self.idleTimeout
    }

    private func upgrade(_ head: RequestHead, now: Double) {
        // Judged above already; this is the second lock on the door, so that no reordering of
        // the code above can ever open a WebSocket to a page or peer that may not have one.
        if let (status, reason) = rules.refusal(head, from: peer) { return refuse(status, reason, now: now) }
        switch WebSocketHandshake.answer(head) {
        case .failure(let refusal):
            refuse("400 Bad Request", refusal.reason, fields: refusal.fields, now: now)
        case .success(let response):
            outbox.add(response.serialized(close: false))
            let link = WebSocketLink(server: server, peer: peer, outbox: outbox, wake: wake, now: now)
            phase = .webSocket(link)
            deadline = link.nextPing
            let early = unread  // frames sent right behind the handshake
            unread = []
            if !early.isEmpty { follow(link.received(early), now: now) }
        }
    }

    /// Answers `status` with `reason` as its text, logs it, and closes once the peer has read it
    /// (or after `lingerLimit`).
    private func refuse(_ status: String, _ reason: String, fields: [(name: String, value: String)] = [], now: Double) {
        rules.log.refused(status, "OSCQuery: \(status) to \(peer): \(reason)")
        var response = HTTPResponse.text(status, reason)
        response.headers += fields
        outbox.add(response.serialized(close: true))
        closeWhenSent = true
        refusing = true
        unread = []
        deadline = now + Self.lingerLimit
    }

    // MARK: sending and closing

    private func follow(_ outcome: WebSocketLink.Outcome, now: Double) {
        guard case .closeAfterSending(let problem) = outcome else { return }
        if let problem { rules.log.refused("websocket", "OSCQuery: closed the WebSocket of \(peer): \(problem)") }
        closeWhenSent = true
        deadline = now + Self.lingerLimit
    }

    /// Sends what waits; once all is sent, answers the next request read, or shuts our side.
    private func sendWaiting(now: Double) {
        while !finished, awaiting == nil {
            guard let sent = outbox.flush(to: fd) else { return finish() }
            if sent > 0, case .http = phase, !refusing { deadline = now + Self.idleTimeout }  // the client is reading
            guard outbox.isEmpty else { return }
            if closeWhenSent {
                if case .lingering = phase { return }
                if case .webSocket(let link) = phase { link.ended() }
                shutdown(fd, Int32(SHUT_WR))
                phase = .lingering
                deadline = min(deadline, now + Self.lingerLimit)
                return
            }
            guard case .http = phase, !unread.isEmpty else { return }
            readRequests(now: now)  // the next request, pipelined behind the last
            if outbox.isEmpty && awaiting == nil { return }  // only part of one had come
        }
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        awaiting?.cancel()
        if case .webSocket(let link) = phase { link.ended() }
    }
}
