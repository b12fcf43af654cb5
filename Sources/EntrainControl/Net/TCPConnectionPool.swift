/// The open OSC-over-TCP connections, kept few and alive: one that sends no whole packet for
/// `idleTimeout` seconds is closed, and at `capacity` a newcomer closes one that has sent
/// nothing yet (the oldest such), else the one idle longest, so idle connections can never lock
/// everyone else out, and a burst of new empty connections displaces only its own kind. A controller that wants to stay
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
        if connections.count >= capacity, let idlest = connections.values.min(by: Self.evictedFirst) {
            evicted = remove(idlest.id)
        }
        connections[nextID] = TCPConnection(fd: fd, peer: peer, id: nextID, now: now)
        nextID += 1
        return evicted
    }

    static func evictedFirst(_ a: TCPConnection, _ b: TCPConnection) -> Bool {
        a.hasSentPacket != b.hasSentPacket ? !a.hasSentPacket : a.lastPacket < b.lastPacket
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
