import EntrainControl
import EntrainService
import Glibc
import Synchronization

/// The discovery server's thread: one `poll` over the listening socket, every connection and a
/// wake pipe (for stop, for what the OSC server's thread queued for a WebSocket client, and for
/// an answer the `AnswerWorker` has made). Sockets are non-blocking, so no client can hold the
/// loop: a slow one only waits for its turn, and its deadlines close it. Connections over the
/// limits get `503` and are closed at once.
final class ServerLoop: @unchecked Sendable {  // `connections` is the loop thread's, and stop()'s once the thread has ended
    private let listener: ListeningSocket
    private let rules: ConnectionRules
    private unowned let server: DiscoveryServer
    private let wakePipe: WakePipe
    private let thread = ServiceThread("entrain-http")
    private let answers = AnswerWorker()
    private let stopping = Atomic<Bool>(false)
    private var connections: [Int32: ServerConnection] = [:]
    private var nextPathLook = 0.0
    /// Out of descriptors: accepting waits until then (the listening socket would wake us at once).
    private var acceptPause = 0.0
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(listener: ListeningSocket, rules: ConnectionRules, server: DiscoveryServer) throws {
        self.listener = listener
        self.rules = rules
        self.server = server
        wakePipe = try WakePipe()
    }

    func start() -> Bool {
        guard answers.start(respond: { [server] in server.respond(to: $0) }, done: { [wakePipe] in wakePipe.wake() }) else { return false }
        guard thread.start({ [self] service in turn(service) }) else {
            answers.stop()
            return false
        }
        return true
    }

    /// Ends the thread (at once: it sleeps only in `poll`, which the pipe wakes), then closes
    /// every connection, whatever its client is doing, and the listening socket.
    func stop() {
        rules.limits.refuseFromNow()
        stopping.store(true, ordering: .releasing)
        wakePipe.wake()
        thread.stop()
        answers.stop()
        for connection in connections.values {
            connection.stop()
            close(connection)
        }
        connections = [:]
        listener.close()
        wakePipe.close()
    }

    private func turn(_ service: ServiceThread) {
        if stopping.load(ordering: .acquiring) { return service.end() }
        let now = ServiceThread.monotonicNow()
        let order = Array(connections.values)
        var polled = [pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
                      pollfd(fd: acceptPause > now ? -1 : listener.fd, events: Int16(POLLIN), revents: 0)]
        polled += order.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        var wakeAt = order.map(\.deadline).min() ?? now + 60
        if order.contains(where: \.isWebSocket) { wakeAt = min(wakeAt, nextPathLook) }
        if acceptPause > now { wakeAt = min(wakeAt, acceptPause) }
        let timeout = Int32(max(0, min(60_000, ((wakeAt - now) * 1000).rounded(.up))))
        guard poll(&polled, nfds_t(polled.count), timeout) >= 0 || errno == EINTR else { return }

        if polled[0].revents != 0 { wakePipe.drain() }
        if polled[1].revents & Int16(POLLIN) != 0 { acceptWaiting() }
        let later = ServiceThread.monotonicNow()
        for (connection, entry) in zip(order, polled.dropFirst(2)) where !connection.finished {
            serve(connection, entry.revents, now: later)
        }
        let lookAtPaths = later >= nextPathLook
        if lookAtPaths { nextPathLook = later + WebSocketSession.pathWatch }
        for connection in connections.values {
            if !connection.finished { connection.tick(now: later, lookAtPaths: lookAtPaths) }
            if !connection.finished && later >= connection.deadline { connection.expire(now: later) }
            if connection.finished { close(connection) }
        }
    }

    private func serve(_ connection: ServerConnection, _ revents: Int16, now: Double) {
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let n = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                connection.received(buffer[0..<n], now: now)
            } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                connection.peerClosed()
            }
        }
        if revents & Int16(POLLOUT) != 0 && !connection.finished { connection.writable(now: now) }
    }

    /// Takes the connections waiting (a few dozen a turn, so that those held are served too).
    private func acceptWaiting() {
        for _ in 0..<64 {
            switch listener.accept() {
            case .none: return
            case .failed(let code):
                rules.log.refused("accept", "OSCQuery: cannot take a connection: \(String(cString: strerror(code)))")
                acceptPause = ServiceThread.monotonicNow() + 0.1
                return
            case .connection(let fd, let peer):
                if let reason = rules.limits.admit(fd, peer: peer.host) {
                    rules.log.refused("limit", "OSCQuery: refused a connection from \(peer.host): \(reason)")
                    let refusal = HTTPResponse.text("503 Service Unavailable", reason).serialized(close: true)
                    _ = refusal.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    Glibc.close(fd)
                    continue
                }
                connections[fd] = ServerConnection(fd: fd, peer: peer, rules: rules, server: server, answers: answers,
                                                   wake: { [wakePipe] in wakePipe.wake() }, now: ServiceThread.monotonicNow())
            }
        }
    }

    private func close(_ connection: ServerConnection) {
        guard connections.removeValue(forKey: connection.fd) != nil else { return }
        rules.limits.release(connection.fd, peer: connection.peer.host)
        Glibc.close(connection.fd)
    }
}
