/// The open OSC-over-TCP connections, kept few and alive: one that sends no whole packet for
/// `idleTimeout` seconds is closed, and at `capacity` a newcomer closes the one idle longest,
/// so idle connections can never lock everyone else out. A controller that wants to stay
/// connected sends something (a `/ping`, a renewed `/osc/subscribe`) within every timeout.
/// Owned by the server thread.
final class TCPConnectionPool {
    let capacity: Int
    let idleTimeout: Double
    private(set) var connections: [Int: TCPConnection] = [:]
    private var nextID = 1

    init(capacity: Int, idleTimeout: Double) {
        self.capacity = max(1, capacity)
        self.idleTimeout = idleTimeout
    }

    subscript(id: Int) -> TCPConnection? { connections[id] }

    /// Take a new connection; returns the one closed to make room, if any (the caller says why
    /// and drops what belonged to it).
    func admit(fd: Int32, peer: SocketAddress, now: Double) -> TCPConnection? {
        var evicted: TCPConnection?
        if connections.count >= capacity, let idlest = connections.values.min(by: { $0.lastPacket < $1.lastPacket }) {
            evicted = remove(idlest.id)
        }
        connections[nextID] = TCPConnection(fd: fd, peer: peer, id: nextID, now: now)
        nextID += 1
        return evicted
    }

    /// Remove and return the connections idle for longer than the timeout.
    func expire(now: Double) -> [TCPConnection] {
        let idle = connections.values.filter { now - $0.lastPacket > idleTimeout }
        for connection in idle { connections[connection.id] = nil }
        return idle
    }

    @discardableResult
    func remove(_ id: Int) -> TCPConnection? { connections.removeValue(forKey: id) }
}
