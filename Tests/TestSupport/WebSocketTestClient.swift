import Foundation
import Glibc

/// A small WebSocket client (RFC 6455) over a blocking socket, for tests: the OSCQuery
/// server's WebSocket, and Chromium's DevTools protocol. Text and binary messages, client
/// frames masked, server frames read whole (fragments joined).
public final class WebSocketTestClient {
    public enum Message: Equatable {
        case text(String)
        case binary([UInt8])
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to ws://host:port/path (IPv4); throws with the server's status line if it refuses the upgrade.
    public init(host: String = "127.0.0.1", port: Int, path: String = "/", timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw Failure(description: "cannot connect to \(host):\(port): \(String(cString: strerror(errno)))") }
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try write(Array(request.utf8))
        var head: [UInt8] = []
        while !head.ends(with: [13, 10, 13, 10]) {
            let chunk = try readSome()
            head += chunk
            if let end = head.firstRange(of: [13, 10, 13, 10]) {
                pending = Array(head[end.upperBound...])
                head = Array(head[..<end.upperBound])
            }
        }
        let status = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first.map(String.init) ?? ""
        guard status.contains(" 101 ") else { close(fd); throw Failure(description: "upgrade refused: \(status)") }
    }

    deinit { close(fd) }

    public func send(text: String) throws { try sendFrame(opcode: 1, Array(text.utf8)) }
    public func send(binary: [UInt8]) throws { try sendFrame(opcode: 2, binary) }

    /// The next text or binary message, or nil when none arrives within the socket's timeout.
    public func receive() throws -> Message? {
        var payload: [UInt8] = []
        var opcode: UInt8 = 0
        while true {
            guard let header = try? readExactly(2) else { return nil }
            let fin = header[0] & 0x80 != 0
            let code = header[0] & 0x0F
            var length = Int(header[1] & 0x7F)
            if length == 126 { length = Int(try readExactly(2).reduce(0) { $0 << 8 | UInt64($1) }) }
            if length == 127 { length = Int(try readExactly(8).reduce(0) { $0 << 8 | UInt64($1) }) }
            let data = try readExactly(length)
            if code == 8 { return nil }  // close
            if code == 9 { try sendFrame(opcode: 10, data); continue }  // ping: a server closes a peer that never answers
            if code == 10 { continue }  // pong
            if code != 0 { opcode = code }
            payload += data
            if fin { break }
        }
        return opcode == 1 ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
    }

    private func sendFrame(opcode: UInt8, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65_536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send failed: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    private func readSome() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw Failure(description: n == 0 ? "closed" : "timed out") }
        return Array(buffer[0..<n])
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while pending.count < count { pending += try readSome() }
        defer { pending.removeFirst(count) }
        return Array(pending[0..<count])
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
