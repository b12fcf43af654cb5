import Foundation

/// The socket calls every IPv4 socket here needs, in one place.
enum IPv4Socket {
    /// A non-blocking socket of `type` bound to `address` (and listening, for TCP).
    static func open(_ type: __socket_type, bind address: SocketAddress, listen: Bool = false) throws -> Int32 {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { throw SocketError.system("socket", errno) }
        if listen {
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var raw = address.raw
        let bound = withUnsafePointer(to: &raw) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, !listen || Glibc.listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw SocketError.cannotBind(address, code)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Where a socket is bound (the real port when 0 was asked for).
    static func localAddress(_ fd: Int32) -> SocketAddress {
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return SocketAddress(actual)
    }

    /// sendto() for one datagram.
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8], to target: SocketAddress) -> Bool {
        var raw = target.raw
        return bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, data.baseAddress, data.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == data.count
                }
            }
        }
    }
}
