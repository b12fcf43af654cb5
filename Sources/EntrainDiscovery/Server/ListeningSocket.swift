import EntrainControl
import Glibc

/// The discovery server's TCP socket: bound to an IPv4 address (or a name that resolves to
/// one, like `localhost`), listening, non-blocking.
struct ListeningSocket {
    let fd: Int32
    /// The port bound (the one given by the system when 0 was asked for).
    let port: Int

    /// Connections the system holds for us before `accept` (a flood queues here, then is refused).
    static let backlog: Int32 = 256

    init(bind host: String, port: Int) throws {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let address = found?.pointee.ai_addr, let length = found?.pointee.ai_addrlen else {
            throw DiscoveryError("'\(host)' is not an IPv4 address or a name of one (\(String(cString: gai_strerror(resolved))))")
        }
        defer { freeaddrinfo(found) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw DiscoveryError(String(cString: strerror(errno))) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard Glibc.bind(fd, address, length) == 0, listen(fd, Self.backlog) == 0 else {
            let reason = errno == EADDRINUSE ? "the port is in use" : String(cString: strerror(errno))
            Glibc.close(fd)
            throw DiscoveryError(reason)
        }
        Self.setNonBlocking(fd)
        var bound = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) } }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: bound.sin_port))
    }

    enum Accepted {
        case connection(fd: Int32, peer: SocketAddress)
        /// Nobody waiting.
        case none
        /// `accept` failed with this errno (out of descriptors: EMFILE, ENFILE).
        case failed(Int32)
    }

    /// The next waiting connection, non-blocking, close-on-exec, without Nagle's delay (WebSocket
    /// frames are small and go out as they come).
    func accept() -> Accepted {
        var peer = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let client = withUnsafeMutablePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &size) } }
        guard client >= 0 else {
            let code = errno
            return code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED ? .none : .failed(code)
        }
        Self.setNonBlocking(client)
        var yes: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        return .connection(fd: client, peer: SocketAddress(ip: UInt32(bigEndian: peer.sin_addr.s_addr), port: UInt16(bigEndian: peer.sin_port)))
    }

    func close() { Glibc.close(fd) }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}
