import EntrainControl
import Foundation

/// A UDP OSC peer for tests: sends to entrain and collects what comes back.
public final class OSCTestClient {
    let fd: Int32
    public let port: UInt16
    let target: sockaddr_in

    /// `bindPort` 0 picks a free port.
    public init(targetPort: Int, bindPort: Int = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr("127.0.0.1")
        local.sin_port = UInt16(bindPort).bigEndian
        _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = UInt16(bigEndian: local.sin_port)
        var t = sockaddr_in()
        t.sin_family = sa_family_t(AF_INET)
        t.sin_addr.s_addr = inet_addr("127.0.0.1")
        t.sin_port = UInt16(targetPort).bigEndian
        target = t
        var size: Int32 = 8 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    public func send(bytes: [UInt8]) {
        var t = target
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &t) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            } }
        }
    }

    public func send(_ address: String, _ arguments: [OSCValue] = []) {
        send(bytes: OSCCodec.encode(OSCMessage(address, arguments)))
    }

    /// Messages received within `timeout` seconds, or up to the first that `done` accepts.
    /// (A fixed window: a subscriber receives meters forever, so "until quiet" never comes.)
    public func receive(timeout: TimeInterval = 0.5, until done: ((OSCMessage) -> Bool)? = nil) -> [OSCMessage] {
        var out: [OSCMessage] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 10) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0, let messages = try? OSCCodec.decode(Array(buffer[0..<n])) else { continue }
            out += messages.map(\.message)
            if let done, messages.contains(where: { done($0.message) }) { return out }
        }
        return out
    }

    /// Send and wait for the first reply on `address`.
    public func request(_ address: String, _ arguments: [OSCValue] = [], reply: String? = nil,
                        timeout: TimeInterval = 2) -> OSCMessage? {
        send(address, arguments)
        let wanted = reply ?? address
        return receive(timeout: timeout) { $0.address == wanted }.last { $0.address == wanted }
    }
}
