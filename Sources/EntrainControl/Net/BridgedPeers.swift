import Synchronization

/// OSC peers that arrive through another server — the discovery server's WebSocket
/// connections — rather than our own sockets. Their packets go through the OSC server's one
/// thread like any other (allowlist, rate limit, router, replies, feedback): the connection
/// queues what it receives here, and the OSC server hands back what it sends through the
/// connection's `deliver` closure. Thread-safe.
public final class BridgedPeers: Sendable {
    public struct Connection: Sendable {
        let address: SocketAddress
        let deliver: @Sendable ([UInt8]) -> Void
    }

    private struct State {
        var connections: [Int: Connection] = [:]
        var inbox: [(id: Int, packet: [UInt8])] = []
        var closed: [Int] = []
        var nextID = 1
    }

    /// Packets waiting for the OSC server, at most this many (a flood beyond is dropped).
    public static let inboxCapacity = 4096
    private let state = Mutex(State())

    /// Called when a packet was queued (the OSC server's loop wakes to take it).
    private let onReceived: @Sendable () -> Void

    public init(received: @escaping @Sendable () -> Void = {}) { onReceived = received }

    /// A new connection from `address`; what the OSC server sends it goes to `deliver`.
    public func open(from address: SocketAddress, deliver: @escaping @Sendable ([UInt8]) -> Void) -> Int {
        state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.connections[id] = Connection(address: address, deliver: deliver)
            return id
        }
    }

    public func close(_ id: Int) {
        let closed = state.withLock { s -> Bool in
            guard s.connections.removeValue(forKey: id) != nil else { return false }
            s.closed.append(id)
            return true
        }
        if closed { onReceived() }  // its subscription ends at once
    }

    /// A packet the connection received, for the OSC server's next turn. False when the queue is full.
    @discardableResult
    public func received(_ packet: [UInt8], from id: Int) -> Bool {
        let queued = state.withLock { s in
            guard s.connections[id] != nil, s.inbox.count < Self.inboxCapacity else { return false }
            s.inbox.append((id, packet))
            return true
        }
        if queued { onReceived() }
        return queued
    }

    // MARK: the OSC server's side

    /// What arrived since the last call, with each sender's address, and the ids closed since.
    func take() -> (packets: [(id: Int, address: SocketAddress, packet: [UInt8])], closed: [Int]) {
        state.withLock { s in
            let packets = s.inbox.compactMap { item in s.connections[item.id].map { (item.id, $0.address, item.packet) } }
            let closed = s.closed
            s.inbox = []
            s.closed = []
            return (packets, closed)
        }
    }

    func send(_ bytes: [UInt8], to id: Int) {
        let connection = state.withLock { $0.connections[id] }
        connection?.deliver(bytes)
    }

    func address(of id: Int) -> SocketAddress? { state.withLock { $0.connections[id]?.address } }
}
