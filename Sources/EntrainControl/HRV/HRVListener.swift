import EntrainService
import Foundation
import Logging
import Synchronization

/// `--hrv-port`: a UDP port for heart data only (a heart-rate bridge that must not reach the
/// control surface). Other addresses are ignored and counted; the same allow-list as OSC applies.
public final class HRVListener: @unchecked Sendable {
    private let socket: UDPSocket
    private let controller: HRVController
    private let allow: AllowList
    private let logger: Logger
    private let service = ServiceThread("entrain-hrv-in")
    /// The thread's own.
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private let ignored = Atomic<Int>(0)

    public init(bind: String, port: Int, allow: AllowList, controller: HRVController, logger: Logger) throws {
        guard let address = SocketAddress(host: bind, port: port) else { throw OSCServerError.badBindAddress(bind) }
        socket = try UDPSocket(bind: address)
        self.controller = controller
        self.allow = allow
        self.logger = logger
    }

    public var address: SocketAddress { socket.address }
    /// Messages that were not heart data, or came from senders not allowed.
    public var ignoredMessages: Int { ignored.load(ordering: .relaxed) }

    public func start() { service.start { [self] _ in receive() } }

    /// One turn: wait for datagrams (50 ms at most), take them all.
    private func receive() {
        var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 50)
        while let (count, sender) = buffer.withUnsafeMutableBytes({ socket.receive(into: $0) }) {
            guard count <= buffer.count, allow.allows(sender) else { ignored.add(1, ordering: .relaxed); continue }
            let messages = buffer.withUnsafeBytes { (try? OSCCodec.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count]))) ?? [] }
            for timed in messages { take(timed.message) }
        }
    }

    private func take(_ message: OSCMessage) {
        switch controller.heart(message) {
        case nil: ignored.add(1, ordering: .relaxed)
        case .some(nil): break
        case .some(let reason?):
            ignored.add(1, ordering: .relaxed)
            logger.debug("HRV port: \(UntrustedText.clean(message.address)): \(reason)")
        }
    }

    public func stop() { service.stop() }
}
