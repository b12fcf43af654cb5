import Foundation
import Glibc

/// A TCP connection that sends exactly the bytes it is given, for tests of what a server does
/// with requests no HTTP client would send: a foreign Host, half a head held open, a 1 MB header.
public final class RawTCPConnection: @unchecked Sendable {  // a descriptor; send and recv are safe from any thread
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public let fd: Int32

    /// Connects to host:port (IPv4), from `source` (a loopback address such as 127.0.0.2) if given.
    public init(host: String = "127.0.0.1", port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot connect to \(host):\(port): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Sends all of `bytes`; false when the peer has closed (or reset) the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Everything the peer sends until it closes, or until `timeout` passes with nothing new;
    /// `closed` says which.
    public func readToClose(timeout: Double = 5) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return (bytes, false) }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (bytes, true) }  // 0: closed; < 0: reset
            bytes += buffer[0..<n]
        }
    }

    /// Whether the peer has closed the connection (or sent something) within `timeout`.
    public func isReadable(within timeout: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, Int32(timeout * 1000)) == 1
    }

    /// The status code of the response read so far (`HTTP/1.1 403 …` → 403), or nil.
    public static func status(_ bytes: [UInt8]) -> Int? {
        let line = String(decoding: bytes.prefix(64), as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        return parts.count > 1 && parts[0].hasPrefix("HTTP/") ? Int(parts[1]) : nil
    }
}
