import EntrainEngine
import Foundation
import Logging
import Synchronization

/// The OSC control surface over UDP: one thread that receives, routes, answers and sends
/// feedback. It never touches engine state directly: the router validates and sends commands
/// through the engine host's ring, stamped with the frame they apply on.
public final class OSCServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var bind = "127.0.0.1"
        public var port = 8000
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

    private let socket: UDPSocket
    private let configuration: Configuration
    private let router: OSCRouter
    private let hub: FeedbackHub
    private let logger: Logger
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let counters = Mutex(Counters())
    private var messageLimit = RateLimiter<UInt32>(rate: messageRate, burst: messageRate)
    private var errorLimit = RateLimiter<SocketAddress>(rate: errorRate, burst: errorRate)
    private var logLimit = RateLimiter<Int>(rate: 5, burst: 10)
    private var suppressedLogs = 0

    public init(configuration: Configuration, router: OSCRouter, host: @escaping @Sendable () -> EngineHost,
                meter: PeakMeter, logger: Logger) throws {
        guard let address = SocketAddress(host: configuration.bind, port: configuration.port) else {
            throw OSCServerError.badBindAddress(configuration.bind)
        }
        socket = try UDPSocket(bind: address)
        self.configuration = configuration
        self.router = router
        hub = FeedbackHub(host: host, meter: meter, fixed: configuration.feedback)
        self.logger = logger
    }

    /// Where we listen (the actual port when 0 was asked for).
    public var address: SocketAddress { socket.address }
    public var statistics: Counters { counters.withLock { $0 } }

    public func start() {
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) { serviceOnce(timeoutMilliseconds: 5) }
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
        var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, timeoutMilliseconds)
        let now = Self.now()
        while true {
            let received = buffer.withUnsafeMutableBytes { socket.receive(into: $0) }
            guard let (count, sender) = received else { break }
            handlePacket(count: count, from: sender, now: now)
        }
        for message in hub.tick(now: now) {
            let bytes = OSCCodec.encode(message)
            for target in hub.targets { socket.send(bytes, to: target) }
        }
    }

    private func handlePacket(count: Int, from sender: SocketAddress, now: Double) {
        counters.withLock { $0.packets += 1 }
        guard configuration.allow.allows(sender) else {
            counters.withLock { $0.dropped += 1 }
            log(.notice, "dropped a packet from \(sender): not in --osc-allow")
            return
        }
        guard messageLimit.allow(sender.ip, now: now) else {
            counters.withLock { $0.rateLimited += 1 }
            reportError(to: sender, address: "", reason: "more than \(Int(Self.messageRate)) messages per second; dropped", now: now)
            return
        }
        let messages: [TimedMessage]
        do {
            guard count <= buffer.count else { throw OSCDecodeError.tooLarge(count) }
            messages = try buffer.withUnsafeBytes { try OSCCodec.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        } catch {
            reportError(to: sender, address: "", reason: "\(error)", now: now)
            return
        }
        for timed in messages {
            counters.withLock { $0.messages += 1 }
            for action in router.handle(timed) { perform(action, for: sender, now: now) }
        }
    }

    private func perform(_ action: OSCRouter.Action, for sender: SocketAddress, now: Double) {
        switch action {
        case .reply(let message):
            socket.send(OSCCodec.encode(message), to: sender)
        case .error(let address, let reason):
            reportError(to: sender, address: address, reason: reason, now: now)
        case .subscribe(let port):
            let target = SocketAddress(ip: sender.ip, port: port.map(UInt16.init) ?? sender.port)
            guard hub.subscribe(target) else {
                reportError(to: sender, address: "/osc/subscribe", reason: "too many subscribers (\(FeedbackHub.maximumSubscribers))", now: now)
                return
            }
            logger.info("OSC feedback to \(target)")
            for message in hub.fullState() { socket.send(OSCCodec.encode(message), to: target) }
        case .unsubscribe:
            hub.unsubscribe(from: sender)
            logger.info("OSC feedback to \(sender.host) stopped")
        }
    }

    /// /error back to the sender (rate-limited per sender) and a log line (rate-limited overall).
    private func reportError(to sender: SocketAddress, address: String, reason: String, now: Double) {
        counters.withLock { $0.errors += 1 }
        log(.warning, "OSC from \(sender): \(address.isEmpty ? "" : address + ": ")\(reason)")
        if errorLimit.allow(sender, now: now) {
            socket.send(OSCCodec.encode(OSCMessage("/error", [.string(address), .string(reason)])), to: sender)
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
