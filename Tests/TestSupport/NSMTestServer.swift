import EntrainControl
import Foundation

/// A minimal session manager written from the NSM protocol, for tests: it takes a client's
/// announce (answering with its own name and capabilities), opens a session for it, asks it to
/// save, and records every message with the address it came from (a client must use one socket).
public final class NSMTestServer {
    public struct Received {
        public let message: OSCMessage
        public let from: sockaddr_in
        public var port: UInt16 { UInt16(bigEndian: from.sin_port) }
    }

    private let fd: Int32
    public let port: UInt16
    /// The client's return address, from its announce.
    public private(set) var client: sockaddr_in?
    public private(set) var log: [Received] = []

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestSupportError.timeout("binding the NSM test server") }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = UInt16(bigEndian: local.sin_port)
    }

    deinit { close(fd) }

    /// What a client finds in NSM_URL.
    public var url: String { "osc.udp://127.0.0.1:\(port)/" }

    /// Wait up to `timeout` for a message on `address`; everything read is logged.
    public func wait(for address: String, timeout: TimeInterval = 10) -> Received? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let n = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length) }
                }
            }
            guard n > 0, let messages = try? OSCCodec.decode(Array(buffer[0..<n])) else { continue }
            var found: Received?
            for timed in messages {
                let received = Received(message: timed.message, from: from)
                log.append(received)
                if timed.message.address == "/nsm/server/announce" { client = from }
                if found == nil, timed.message.address == address { found = received }
            }
            if let found { return found }
        }
        return nil
    }

    /// The reply to an announce: our name and capabilities.
    public func acceptAnnounce() {
        send(OSCMessage("/reply", [.string("/nsm/server/announce"), .string("welcome"), .string("NSM test server"), .string(":server-control:")]))
    }

    public func open(path: String, displayName: String, clientID: String) {
        send(OSCMessage("/nsm/client/open", [.string(path), .string(displayName), .string(clientID)]))
    }

    public func save() { send(OSCMessage("/nsm/client/save")) }

    public func send(_ message: OSCMessage) {
        guard var target = client else { return }
        let bytes = OSCCodec.encode(message)
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }

    /// The replies (`/reply` or `/error`) to `path` the client has sent so far.
    public func replies(to path: String) -> [OSCMessage] {
        log.map(\.message).filter { ($0.address == "/reply" || $0.address == "/error") && $0.arguments.first == .string(path) }
    }
}
