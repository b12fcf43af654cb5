import Foundation

/// A non-blocking IPv4 UDP socket bound to one address: what liblo 0.31 cannot do (its UDP
/// servers listen on every interface), and what lets us answer even packets liblo cannot parse.
final class UDPSocket {
    let fd: Int32
    let address: SocketAddress

    init(bind address: SocketAddress) throws {
        fd = try IPv4Socket.open(SOCK_DGRAM, bind: address)
        var size: Int32 = 4 << 20  // a deep receive buffer rides out bursts
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        self.address = IPv4Socket.localAddress(fd)
    }

    deinit { close(fd) }

    /// One datagram into `buffer`, or nil when none is waiting.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, from: SocketAddress)? {
        var from = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let n = withUnsafeMutablePointer(to: &from) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(fd, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC), $0, &length)
            }
        }
        guard n >= 0 else { return nil }
        return (n, SocketAddress(from))
    }

    @discardableResult
    func send(_ bytes: [UInt8], to target: SocketAddress) -> Bool { IPv4Socket.send(fd, bytes, to: target) }
}

public enum SocketError: Error, CustomStringConvertible {
    case system(String, Int32)
    case cannotBind(SocketAddress, Int32)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .cannotBind(let address, let code):
            "cannot listen for OSC on \(address): \(String(cString: strerror(code)))"
                + (code == EADDRINUSE ? " (another program uses the port; pick one with --osc-port, or --no-osc)" : "")
        }
    }
}
