import EntrainEngine
import Foundation
import Logging
import Synchronization

/// Where a message came from, and where its replies go.
enum Peer: Hashable, CustomStringConvertible {
    case udp(SocketAddress)
    /// A TCP connection, by id (replies go back over it).
    case tcp(id: Int, address: SocketAddress)

    var address: SocketAddress {
        switch self {
        case .udp(let a), .tcp(_, let a): a
        }
    }

    var description: String {
        switch self {
        case .udp(let a): "\(a)"
        case .tcp(_, let a): "tcp://\(a)"
        }
    }
}

/// The OSC control surface over UDP (and TCP with --osc-tcp): one thread that receives, routes,
/// answers and sends feedback. It never touches engine state directly: the router validates and sends commands
/// through the engine host's ring, stamped with the frame they apply on.
// @unchecked: the sockets, connections, hub and limiters are touched only by the server's own
// thread (serviceOnce); `running` is atomic and `counters` is behind a mutex for other readers.
public final class OSCServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var bind = "127.0.0.1"
        public var port = 8000
        /// A TCP port too (nil = UDP only).
        public var tcpPort: Int?
        /// Senders besides loopback that may talk to us.
        public var allow = AllowList()
        public var feedback: [SocketAddress] = []
        public init() {}
    }

    public struct Counters: Sendable {
        public var packets = 0, messages = 0, errors = 0, dropped = 0, rateLimited = 0
    }

    /// Per sender: messages beyond this rate are dropped (the benchmark sends 10,000/s).
    static let messageRate = 30_000.0
    /// Per sender: /error replies beyond this rate are not sent.
    static let errorRate = 20.0

    static let maximumConnections = 32

    private let socket: UDPSocket
    private let listener: TCPListener?
    private var connections: [Int: TCPConnection] = [:]
    private var nextConnection = 1
    private let configuration: Configuration
    private let router: OSCRouter
    private let hub: FeedbackHub
    private let beatFeed: BeatFeed
    private let logger: Logger
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let counters = Mutex(Counters())
    private var messageLimit = RateLimiter<UInt32>(rate: messageRate, burst: messageRate)
    private var errorLimit = RateLimiter<Peer>(rate: errorRate, burst: errorRate)
    private var logLimit = RateLimiter<Int>(rate: 5, burst: 10)
    private var suppressedLogs = 0

    public init(configuration: Configuration, router: OSCRouter, host: @escaping @Sendable () -> EngineHost,
                meter: PeakMeter, report: @escaping @Sendable () -> [OSCMessage] = { [] },
                beatTime: @escaping @Sendable (Int64) -> Double? = { _ in nil }, logger: Logger) throws {
        guard let address = SocketAddress(host: configuration.bind, port: configuration.port) else {
            throw OSCServerError.badBindAddress(configuration.bind)
        }
        socket = try UDPSocket(bind: address)
        listener = try configuration.tcpPort.map { try TCPListener(bind: SocketAddress(ip: address.ip, port: UInt16($0))) }
        self.configuration = configuration
        self.router = router
        hub = FeedbackHub(space: router.space, meter: meter, fixed: configuration.feedback, report: report)
        beatFeed = BeatFeed(host: host, time: beatTime)
        self.logger = logger
    }

    /// Where we listen (the actual port when 0 was asked for).
    public var address: SocketAddress { socket.address }
    public var tcpAddress: SocketAddress? { listener?.address }
    public var statistics: Counters { counters.withLock { $0 } }

    public func start() {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            // A short wait: beat events leave within 2 ms of the engine publishing them.
            while running.load(ordering: .relaxed) { serviceOnce(timeoutMilliseconds: 2) }
            finished.signal()
        }
        thread.name = "entrain-osc"
        thread.start()
    }

    public func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
    }

    // MARK: - The loop

    private var buffer = [UInt8](repeating: 0, count: 65_536)

    private func serviceOnce(timeoutMilliseconds: Int32) {
        var descriptors = [pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)]
        if let listener { descriptors.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)) }
        let open = Array(connections.values)
        for connection in open {
            descriptors.append(pollfd(fd: connection.fd, events: Int16(POLLIN) | (connection.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0))
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        let now = Self.now()
        while true {
            let received = buffer.withUnsafeMutableBytes { socket.receive(into: $0) }
            guard let (count, sender) = received else { break }
            if count > buffer.count {
                handlePacket(nil, size: count, from: .udp(sender), now: now)
            } else {
                buffer.withUnsafeBytes { handlePacket(UnsafeRawBufferPointer(rebasing: $0[0..<count]), size: count, from: .udp(sender), now: now) }
            }
        }
        acceptConnections()
        for connection in open { service(connection, now: now) }
        for message in hub.tick(now: now) {
            let bytes = OSCCodec.encode(message)
            for target in hub.targets { send(bytes, to: target) }
        }
        for packet in beatFeed.packets(now: now, listening: !hub.targets.isEmpty) {
            for target in hub.targets { send(packet, to: target) }
        }
    }

    private func acceptConnections() {
        while let (fd, peer) = listener?.accept() {
            guard configuration.allow.allows(peer), connections.count < Self.maximumConnections else {
                close(fd)
                counters.withLock { $0.dropped += 1 }
                log(.notice, "refused a TCP connection from \(peer)")
                continue
            }
            connections[nextConnection] = TCPConnection(fd: fd, peer: peer, id: nextConnection)
            nextConnection += 1
        }
    }

    private func service(_ connection: TCPConnection, now: Double) {
        let peer = Peer.tcp(id: connection.id, address: connection.peer)
        var alive = connection.readAvailable() && connection.flush()
        do {
            for packet in try connection.packets() {
                packet.withUnsafeBytes { handlePacket($0, size: packet.count, from: peer, now: now) }
            }
        } catch {
            reportError(to: peer, address: "", reason: "\(error); closing the connection", now: now)
            alive = false
        }
        if !alive {
            connections[connection.id] = nil
            hub.unsubscribe(from: peer)
        }
    }

    private func send(_ bytes: [UInt8], to peer: Peer) {
        switch peer {
        case .udp(let address): socket.send(bytes, to: address)
        case .tcp(let id, _):
            if let connection = connections[id], !connection.send(bytes) {
                connections[id] = nil
                hub.unsubscribe(from: peer)
            }
        }
    }

    /// One packet (nil when it was too large to receive whole).
    private func handlePacket(_ packet: UnsafeRawBufferPointer?, size: Int, from sender: Peer, now: Double) {
        counters.withLock { $0.packets += 1 }
        guard configuration.allow.allows(sender.address) else {
            counters.withLock { $0.dropped += 1 }
            log(.notice, "dropped a packet from \(sender): not in --osc-allow")
            return
        }
        guard messageLimit.allow(sender.address.ip, now: now) else {
            counters.withLock { $0.rateLimited += 1 }
            reportError(to: sender, address: "", reason: "more than \(Int(Self.messageRate)) messages per second; dropped", now: now)
            return
        }
        let messages: [TimedMessage]
        do {
            guard let packet else { throw OSCDecodeError.tooLarge(size) }
            messages = try OSCCodec.decode(packet)
        } catch {
            reportError(to: sender, address: "", reason: "\(error)", now: now)
            return
        }
        for timed in messages {
            counters.withLock { $0.messages += 1 }
            for action in router.handle(timed) { perform(action, for: sender, now: now) }
        }
    }

    private func perform(_ action: OSCRouter.Action, for sender: Peer, now: Double) {
        switch action {
        case .reply(let message):
            send(OSCCodec.encode(message), to: sender)
        case .error(let address, let reason):
            reportError(to: sender, address: address, reason: reason, now: now)
        case .subscribe(let port):
            // Over UDP, to the given port (or the source port); over TCP, back down the connection.
            var target = sender
            if case .udp(let address) = sender { target = .udp(SocketAddress(ip: address.ip, port: port.map(UInt16.init) ?? address.port)) }
            guard hub.subscribe(target) else {
                reportError(to: sender, address: "/osc/subscribe", reason: "too many subscribers (\(FeedbackHub.maximumSubscribers))", now: now)
                return
            }
            logger.info("OSC feedback to \(target)")
            for message in hub.fullState() { send(OSCCodec.encode(message), to: target) }
        case .unsubscribe:
            hub.unsubscribe(from: sender)
            logger.info("OSC feedback to \(sender) stopped")
        }
    }

    /// /error back to the sender (rate-limited per sender) and a log line (rate-limited overall).
    private func reportError(to sender: Peer, address: String, reason: String, now: Double) {
        counters.withLock { $0.errors += 1 }
        log(.warning, "OSC from \(sender): \(address.isEmpty ? "" : address + ": ")\(reason)")
        if errorLimit.allow(sender, now: now) {
            send(OSCCodec.encode(OSCMessage("/error", [.string(address), .string(reason)])), to: sender)
        }
    }

    private func log(_ level: Logger.Level, _ text: String) {
        if logLimit.allow(0, now: Self.now()) {
            if suppressedLogs > 0 {
                logger.log(level: level, "(\(suppressedLogs) similar OSC log lines suppressed)")
                suppressedLogs = 0
            }
            logger.log(level: level, "\(text)")
        } else {
            suppressedLogs += 1
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

public enum OSCServerError: Error, CustomStringConvertible {
    case badBindAddress(String)
    public var description: String {
        switch self {
        case .badBindAddress(let text): "--osc-bind: '\(text)' is not an IPv4 address"
        }
    }
}
