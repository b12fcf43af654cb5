import EntrainControl
import Foundation

/// An OSC-over-TCP peer for tests: a real loopback connection, OSC 1.0 (length-prefixed) and
/// OSC 1.1 (SLIP) framing, and what came back.
public final class OSCTCPStream {
    public let fd: Int32
    public var inbound: [UInt8] = []
    /// The server closed the connection (a read returned end of stream).
    public private(set) var isClosed = false

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let deadline = Date().addingTimeInterval(10)
        while !Loopback.connect(fd, port: port) {
            guard Date() < deadline else { throw TestSupportError.timeout("TCP connect") }
            usleep(50_000)
        }
    }

    deinit { close(fd) }

    public func write(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
    public func send(_ message: OSCMessage) { write(Self.lengthPrefixed(message)) }

    /// Everything received so far, reading for `seconds` (or until the server closes).
    @discardableResult
    public func read(seconds: Double) -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline, !isClosed {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 10) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { isClosed = true; break }
            inbound += chunk[0..<n]
        }
        return inbound
    }

    /// The length-prefixed messages received so far.
    public var messages: [OSCMessage] { Self.messages(lengthPrefixed: inbound) }

    public static func lengthPrefixed(_ message: OSCMessage) -> [UInt8] {
        let bytes = OSCCodec.encode(message)
        return withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init) + bytes
    }

    public static func slip(_ message: OSCMessage) -> [UInt8] {
        var out: [UInt8] = [0xC0]
        for byte in OSCCodec.encode(message) {
            switch byte {
            case 0xC0: out += [0xDB, 0xDC]
            case 0xDB: out += [0xDB, 0xDD]
            default: out.append(byte)
            }
        }
        return out + [0xC0]
    }

    /// Cut a length-prefixed stream into messages.
    public static func messages(lengthPrefixed stream: [UInt8]) -> [OSCMessage] {
        var out: [OSCMessage] = [], offset = 0
        while stream.count - offset >= 4 {
            let size = Int(stream[offset]) << 24 | Int(stream[offset + 1]) << 16 | Int(stream[offset + 2]) << 8 | Int(stream[offset + 3])
            guard stream.count - offset - 4 >= size else { break }
            out += ((try? OSCCodec.decode(Array(stream[(offset + 4)..<(offset + 4 + size)]))) ?? []).map(\.message)
            offset += 4 + size
        }
        return out
    }
}
