import Foundation

/// One OSC-over-TCP connection: a byte stream cut into packets by either OSC 1.0 framing
/// (a 32-bit big-endian length before each packet, as liblo sends) or OSC 1.1 SLIP framing
/// (packets between 0xC0 bytes, as TouchOSC sends), recognised from the first byte.
/// Replies use the connection's own framing. Non-blocking; owned by the server thread.
final class TCPConnection {
    enum Framing { case unknown, lengthPrefixed, slip }

    static let maximumBuffered = 1 << 20

    let fd: Int32
    let peer: SocketAddress
    let id: Int
    /// When the last whole packet arrived (or the connection opened): what the idle timeout measures.
    var lastPacket: Double {
        didSet { hasSentPacket = true }
    }
    /// Whether a whole packet ever arrived: connections that never sent one go first when room is needed.
    private(set) var hasSentPacket = false
    private(set) var framing = Framing.unknown
    private var inbound: [UInt8] = []
    private var outbound: [UInt8] = []

    init(fd: Int32, peer: SocketAddress, id: Int, now: Double) {
        self.fd = fd
        self.peer = peer
        self.id = id
        lastPacket = now
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    var wantsToWrite: Bool { !outbound.isEmpty }

    /// Read what has arrived; false when the peer closed or broke the stream.
    func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                inbound += chunk[0..<n]
                if inbound.count > Self.maximumBuffered { return false }
                continue
            }
            if n == 0 { return false }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        }
    }

    /// Complete packets received so far, or an error that ends the connection.
    func packets() throws -> [[UInt8]] {
        if framing == .unknown, let first = inbound.first { framing = first == 0xC0 ? .slip : .lengthPrefixed }
        switch framing {
        case .unknown: return []
        case .lengthPrefixed: return try lengthPrefixedPackets()
        case .slip: return slipPackets()
        }
    }

    private func lengthPrefixedPackets() throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        var offset = 0
        while inbound.count - offset >= 4 {
            let size = Int(inbound[offset]) << 24 | Int(inbound[offset + 1]) << 16 | Int(inbound[offset + 2]) << 8 | Int(inbound[offset + 3])
            guard size > 0 else { throw TCPFramingError.zeroLength }
            guard size <= OSCCodec.maximumPacketSize else { throw OSCDecodeError.tooLarge(size) }
            guard inbound.count - offset - 4 >= size else { break }
            out.append(Array(inbound[(offset + 4)..<(offset + 4 + size)]))
            offset += 4 + size
        }
        inbound.removeFirst(offset)
        return out
    }

    private func slipPackets() -> [[UInt8]] {
        var out: [[UInt8]] = []
        var packet: [UInt8] = []
        var escaped = false
        var consumed = 0
        for (i, byte) in inbound.enumerated() {
            if escaped {
                packet.append(byte == 0xDC ? 0xC0 : (byte == 0xDD ? 0xDB : byte))
                escaped = false
            } else if byte == 0xDB {
                escaped = true
            } else if byte == 0xC0 {
                if !packet.isEmpty { out.append(packet) }
                packet.removeAll()
                consumed = i + 1
            } else {
                packet.append(byte)
            }
        }
        inbound.removeFirst(consumed)
        return out
    }

    /// Queue a packet in this connection's framing and try to send it.
    func send(_ packet: [UInt8]) -> Bool {
        switch framing {
        case .slip:
            outbound.append(0xC0)
            for byte in packet {
                switch byte {
                case 0xC0: outbound += [0xDB, 0xDC]
                case 0xDB: outbound += [0xDB, 0xDD]
                default: outbound.append(byte)
                }
            }
            outbound.append(0xC0)
        case .lengthPrefixed, .unknown:
            let n = UInt32(packet.count).bigEndian
            withUnsafeBytes(of: n) { outbound += $0 }
            outbound += packet
        }
        guard outbound.count <= Self.maximumBuffered else { return false }  // a reader that never reads
        return flush()
    }

    /// Write what is queued; false if the connection broke.
    func flush() -> Bool {
        while !outbound.isEmpty {
            let n = outbound.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { outbound.removeFirst(n); continue }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
        return true
    }
}

/// A stream that cannot be cut into packets any more.
enum TCPFramingError: Error, CustomStringConvertible {
    /// A length prefix of 0: no OSC packet is empty, so the stream is out of step.
    case zeroLength

    var description: String {
        switch self {
        case .zeroLength: "a length prefix of 0 bytes (OSC packets over TCP are 1–\(OSCCodec.maximumPacketSize) bytes)"
        }
    }
}

/// A non-blocking TCP listener bound to one address.
final class TCPListener {
    let fd: Int32
    let address: SocketAddress

    init(bind address: SocketAddress) throws {
        fd = try IPv4Socket.open(SOCK_STREAM, bind: address, listen: true)
        self.address = IPv4Socket.localAddress(fd)
    }

    deinit { close(fd) }

    /// A waiting connection, if any: (descriptor, peer).
    func accept() -> (Int32, SocketAddress)? {
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let client = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
        }
        return client >= 0 ? (client, SocketAddress(peer)) : nil
    }
}
