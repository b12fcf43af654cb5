import Foundation
import Glibc

/// One HTTP/1.1 GET over a plain socket, for tests of the OSCQuery server and of Chromium's
/// DevTools endpoint: the status code and the body (Content-Length or read to close).
public enum HTTPTestClient {
    public struct Response {
        public let status: Int
        public let body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw WebSocketTestClient.Failure(description: "not a JSON object: \(text.prefix(200))")
            }
            return object
        }
    }

    public static func get(host: String = "127.0.0.1", port: Int, path: String, from source: String? = nil) throws -> Response {
        // `source`: connect from this local address (to test the allowlist).
        let connection = try RawTCPConnection(host: host, port: port, from: source)
        defer { withExtendedLifetime(connection) {} }  // its descriptor is read below
        let fd = connection.fd
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
            if let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                   let length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)),
                   bytes.count - split.upperBound >= length { break }
            }
        }
        guard let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { throw WebSocketTestClient.Failure(description: "no HTTP response") }
        let statusLine = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        return Response(status: status, body: Array(bytes[split.upperBound...]))
    }
}
