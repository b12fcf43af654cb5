import EntrainEngine
import EntrainService
import Foundation
import Logging
import Synchronization

/// Where a message came from, and where its replies go.
enum Peer: Hashable, CustomStringConvertible {
    case udp(SocketAddress)
    /// A TCP connection, by id (replies go back over it).
    case tcp(id: Int, address: SocketAddress)
    /// A connection of another server (a WebSocket), by its BridgedPeers id.
    case bridged(id: Int, address: SocketAddress)

    var address: SocketAddress {
        switch self {
        case .udp(let a), .tcp(_, let a), .bridged(_, let a): a
        }
    }

    var description: String {
        switch self {
        case .udp(let a): "\(a)"
        case .tcp(_, let a): "tcp://\(a)"
        case .bridged(_, let a): "ws://\(a)"
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
        /// Per sender (UDP address and port; TCP connection): messages beyond this rate are
        /// dropped, /panic excepted (the benchmark sends 10,000/s).
        public var messageRate = 30_000.0
        /// Seconds a UDP subscription lasts unless renewed.
        public var subscriptionLifetime = 60.0
        /// Bytes per second each feedback target may receive.
        public var feedbackBytesPerSecond = 16_384
        /// TCP: a connection that sends no packet for this many seconds is closed.
        public var tcpIdleTimeout = 60.0
        /// TCP: at most this many connections; a new one closes the one idle longest.
        public var maximumConnections = 32
        public init() {}
    }

    public struct Counters: Sendable {
        public var packets = 0, messages = 0, errors = 0, dropped = 0, rateLimited = 0
    }

    /// Per sender: /error replies beyond this rate are not sent.
    static let errorRate = 20.0
    /// Datagrams read per turn of the loop, so a flood cannot starve TCP, feedback and finished loads.
    static let datagramsPerTurn = 1000

    private let socket: UDPSocket
    private let listener: TCPListener?
    private let connections: TCPConnectionPool
    private let configuration: Configuration
    private let router: OSCRouter
    private let loads: FileLoadQueue
    private let hub: FeedbackHub
    private let beatFeed: BeatFeed
    private let logger: Logger
    private let service = ServiceThread("entrain-osc")
    /// Cuts the loop's wait short: a file load finished, a WebSocket packet queued, a stop.
    private let wakePipe: WakePipe
    private let counters = Mutex(Counters())
    private var messageLimit: RateLimiter<Peer>
    private var errorLimit = RateLimiter<Peer>(rate: errorRate, burst: errorRate)
    private var logLimit = RateLimiter<Int>(rate: 5, burst: 10)
    private var suppressedLogs = 0

    /// Connections of the discovery server (WebSockets), served like our own sockets.
    public let bridged: BridgedPeers

    /// With a feedback target, the loop looks every 2 ms: beat events leave within 2 ms of the
    /// engine publishing them. With none, nothing is due on a clock, so it sleeps in `poll`
    /// until a socket or the wake pipe has something (this long at most, for TCP idle expiry).
    static let listeningWaitMilliseconds: Int32 = 2
    static let idleWaitMilliseconds: Int32 = 500
    /// With TCP connections open, their idle timeouts are checked this often.
    static let tcpWaitMilliseconds: Int32 = 100

    public init(configuration: Configuration, router: OSCRouter, host: @escaping @Sendable () -> EngineHost,
                meter: PeakMeter, report: @escaping @Sendable () -> [OSCMessage] = { [] },
                beatTime: @escaping @Sendable (Int64) -> Double? = { _ in nil }, logger: Logger) throws {
        guard let address = SocketAddress(host: configuration.bind, port: configuration.port) else {
            throw OSCServerError.badBindAddress(configuration.bind)
        }
        socket = try UDPSocket(bind: address)
        listener = try configuration.tcpPort.map { try TCPListener(bind: SocketAddress(ip: address.ip, port: UInt16($0))) }
        connections = TCPConnectionPool(capacity: configuration.maximumConnections, idleTimeout: configuration.tcpIdleTimeout)
        self.configuration = configuration
        self.router = router
        let wakePipe = try WakePipe()
        self.wakePipe = wakePipe
        loads = FileLoadQueue(router: router, finished: { wakePipe.wake() })
        bridged = BridgedPeers(received: { wakePipe.wake() })
        messageLimit = RateLimiter(rate: configuration.messageRate, burst: configuration.messageRate)
        hub = FeedbackHub(space: router.space, meter: meter, fixed: configuration.feedback,
                          limits: FeedbackHub.Limits(lifetime: configuration.subscriptionLifetime,
                                                     bytesPerSecond: configuration.feedbackBytesPerSecond),
                          report: report, now: ServiceThread.monotonicNow())
        beatFeed = BeatFeed(host: host, time: beatTime)
        self.logger = logger
    }

    /// Where we listen (the actual port when 0 was asked for).
    public var address: SocketAddress { socket.address }
    public var tcpAddress: SocketAddress? { listener?.address }
    public var statistics: Counters { counters.withLock { $0 } }

    public func start() {
        service.start { [self] _ in
            serviceOnce(timeoutMilliseconds: hub.hasTargets ? Self.listeningWaitMilliseconds
                                                             : connections.connections.isEmpty ? Self.idleWaitMilliseconds : Self.tcpWaitMilliseconds)
        }
    }

    /// Stop the loop (marked stopping first, then woken: its `poll` may be waiting long).
    public func stop() {
        service.end()
        wakePipe.wake()
        service.stop()
    }

    // MARK: - The loop

    private var buffer = [UInt8](repeating: 0, count: 65_536)

    private func serviceOnce(timeoutMilliseconds: Int32) {
        var descriptors = [pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
        if let listener { descriptors.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)) }
        let open = Array(connections.connections.values)
        for connection in open {
            descriptors.append(pollfd(fd: connection.fd, events: Int16(POLLIN) | (connection.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0))
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        if descriptors[1].revents != 0 { wakePipe.drain() }
        let now = ServiceThread.monotonicNow()
        for _ in 0..<Self.datagramsPerTurn {
            let received = buffer.withUnsafeMutableBytes { socket.receive(into: $0) }
            guard let (count, sender) = received else { break }
            if count > buffer.count {
                handlePacket(nil, size: count, from: .udp(sender), now: now)
            } else {
                buffer.withUnsafeBytes { handlePacket(UnsafeRawBufferPointer(rebasing: $0[0..<count]), size: count, from: .udp(sender), now: now) }
            }
        }
        acceptConnections(now: now)
        for connection in open where connections[connection.id] === connection { service(connection, now: now) }
        serviceBridged(now: now)
        for idle in connections.expire(now: now) {
            close(idle, reason: "no packet for \(Self.seconds(configuration.tcpIdleTimeout)); closing the connection (send something, e.g. /ping, to keep it open)", now: now)
        }
        for load in loads.finished() {
            for action in load.actions { perform(action, for: load.sender, now: now) }
            for timed in load.released { dispatch(timed, from: load.sender, now: now) }
        }
        let beats = beatFeed.feedback(now: now, listening: hub.hasTargets)
        for (target, packet) in hub.tick(now: now, extra: beats.messages, events: beats.events) { send(packet, to: target) }
    }

    private func acceptConnections(now: Double) {
        while let (fd, peer) = listener?.accept() {
            guard configuration.allow.allows(peer) else {
                Glibc.close(fd)
                counters.withLock { $0.dropped += 1 }
                log(.notice, "refused a TCP connection from \(peer): not in --osc-allow")
                continue
            }
            if let evicted = connections.admit(fd: fd, peer: peer, now: now) {
                close(evicted, reason: "\(connections.capacity) connections are open: closing this idle one to make room for a new one", now: now)
            }
        }
    }

    private func service(_ connection: TCPConnection, now: Double) {
        let peer = Peer.tcp(id: connection.id, address: connection.peer)
        var alive = connection.readAvailable() && connection.flush()
        do {
            for packet in try connection.packets() {
                connection.lastPacket = now
                packet.withUnsafeBytes { handlePacket($0, size: packet.count, from: peer, now: now) }
            }
        } catch {
            reportError(to: peer, address: "", reason: "\(error); closing the connection", now: now)
            alive = false
        }
        if !alive { drop(connection) }
    }

    private func serviceBridged(now: Double) {
        let (packets, closed) = bridged.take()
        for id in closed { hub.unsubscribe(from: .bridged(id: id, address: SocketAddress(ip: 0, port: 0))) }
        for item in packets {
            item.packet.withUnsafeBytes { handlePacket($0, size: item.packet.count, from: .bridged(id: item.id, address: item.address), now: now) }
        }
    }

    /// Close a connection after telling it why (best effort: what the socket takes now).
    private func close(_ connection: TCPConnection, reason: String, now: Double) {
        log(.notice, "OSC over TCP from \(connection.peer): \(reason)")
        _ = connection.send(OSCCodec.encode(OSCMessage("/error", [.string(""), .string(reason)])))
        drop(connection)
    }

    private func drop(_ connection: TCPConnection) {
        connections.remove(connection.id)
        hub.unsubscribe(from: .tcp(id: connection.id, address: connection.peer))
    }

    private func send(_ bytes: [UInt8], to peer: Peer) {
        switch peer {
        case .udp(let address): socket.send(bytes, to: address)
        case .tcp(let id, _):
            if let connection = connections[id], !connection.send(bytes) { drop(connection) }
        case .bridged(let id, _):
            bridged.send(bytes, to: id)
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
        // /panic acts first, before anything that could wait: the rate limit, the rest of the
        // packet, a file load or a plugin change queued behind it.
        let panics = packet.map { PanicScan.mayContainPanic($0) ? panicOnly($0, from: sender, now: now) : 0 } ?? 0
        guard messageLimit.allow(sender, now: now) else {
            counters.withLock { $0.rateLimited += 1 }
            reportError(to: sender, address: "", reason: "more than \(Int(configuration.messageRate)) messages per second from this sender; dropped", now: now)
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
        counters.withLock { $0.messages += messages.count - panics }
        for timed in messages where panics == 0 || timed.message.address != "/panic" { dispatch(timed, from: sender, now: now) }
    }

    /// The packet's /panic messages, acted on (even in a packet the rate limit drops); returns how many.
    private func panicOnly(_ packet: UnsafeRawBufferPointer, from sender: Peer, now: Double) -> Int {
        var count = 0
        for timed in (try? OSCCodec.decode(packet)) ?? [] where timed.message.address == "/panic" {
            counters.withLock { $0.messages += 1 }
            dispatch(timed, from: sender, now: now)
            count += 1
        }
        return count
    }

    /// Route one message now, or on the file worker (see FileLoadQueue).
    private func dispatch(_ timed: TimedMessage, from sender: Peer, now: Double) {
        switch loads.admit(timed, from: sender) {
        case .now: for action in router.handle(timed) { perform(action, for: sender, now: now) }
        case .queued: break
        case .refused(let reason): reportError(to: sender, address: timed.message.address, reason: reason, now: now)
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
            let renewal = hub.targets.contains(target)
            guard hub.subscribe(target, now: now) else {
                reportError(to: sender, address: "/osc/subscribe", reason: "too many subscribers (\(FeedbackHub.maximumSubscribers))", now: now)
                return
            }
            if !renewal { log(.info, "OSC feedback to \(target)") }
        case .unsubscribe:
            hub.unsubscribe(from: sender)
            log(.info, "OSC feedback to \(sender) stopped")
        }
    }

    /// /error back to the sender (rate-limited per sender) and a log line (rate-limited overall),
    /// the sender's text escaped and cut (UntrustedText). Nothing is formatted when both limits say no.
    private func reportError(to sender: Peer, address: String, reason: @autoclosure () -> String, now: Double) {
        counters.withLock { $0.errors += 1 }
        let replying = errorLimit.allow(sender, now: now)
        let logging = logLimit.allow(0, now: now)
        guard replying || logging else {
            suppressedLogs += 1
            return
        }
        let address = UntrustedText.clean(address)
        let reason = UntrustedText.clean(reason(), limit: Self.reasonLimit)
        if logging { emit(.warning, "OSC from \(sender): \(address.isEmpty ? "" : address + ": ")\(reason)") } else { suppressedLogs += 1 }
        if replying { send(OSCCodec.encode(OSCMessage("/error", [.string(address), .string(reason)])), to: sender) }
    }

    /// A reason is our sentence around the sender's text: room for both.
    static let reasonLimit = 400

    private func log(_ level: Logger.Level, _ text: @autoclosure () -> String) {
        if logLimit.allow(0, now: ServiceThread.monotonicNow()) { emit(level, text()) } else { suppressedLogs += 1 }
    }

    /// A log line the limiter allowed, after the count of those it held back.
    private func emit(_ level: Logger.Level, _ text: String) {
        if suppressedLogs > 0 {
            logger.log(level: level, "(\(suppressedLogs) similar OSC log lines suppressed)")
            suppressedLogs = 0
        }
        logger.log(level: level, "\(text)")
    }

    static func seconds(_ value: Double) -> String { value == value.rounded() ? "\(Int(value)) s" : "\(value) s" }
}

public enum OSCServerError: Error, CustomStringConvertible {
    case badBindAddress(String)
    public var description: String {
        switch self {
        case .badBindAddress(let text): "--osc-bind: '\(text)' is not an IPv4 address"
        }
    }
}
