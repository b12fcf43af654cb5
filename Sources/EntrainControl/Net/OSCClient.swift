import Foundation

/// A UDP OSC peer: what `entrain ctl`, `entrain osc-load` and the tests use to talk to a client.
public final class OSCClient {
    public let local: SocketAddress
    private let fd: Int32
    private let target: SocketAddress

    /// Sending to `host`:`port` (an IPv4 address or "localhost"), bound to `localPort` (0 = any
    /// free port) on loopback, or on every interface when the target is elsewhere. `onlyFromTarget`:
    /// the kernel drops datagrams from anyone else (a session manager's orders come from it alone).
    public init(host: String = "127.0.0.1", port: Int, localPort: Int = 0, onlyFromTarget: Bool = false) throws {
        guard let target = SocketAddress(host: host, port: port) else { throw SocketError.system("\(host):\(port)", EINVAL) }
        let loopback = target.ip >> 24 == 127
        guard let any = SocketAddress(host: loopback ? "127.0.0.1" : "0.0.0.0", port: localPort) else { throw SocketError.system("port", EINVAL) }
        fd = try IPv4Socket.open(SOCK_DGRAM, bind: any)
        var size: Int32 = 8 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        if onlyFromTarget {
            var raw = target.raw
            let socket = fd
            let connected = withUnsafePointer(to: &raw) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if connected != 0 {
                let code = errno
                close(socket)
                throw SocketError.system("connect to \(host):\(port)", code)
            }
        }
        local = IPv4Socket.localAddress(fd)
        self.target = target
    }

    deinit { close(fd) }

    public func send(bytes: [UInt8]) { IPv4Socket.send(fd, bytes, to: target) }
    public func send(_ message: OSCMessage) { send(bytes: OSCCodec.encode(message)) }

    /// Whatever has arrived so far, waiting up to `milliseconds` for the first datagram.
    public func drain(waitMilliseconds milliseconds: Int32 = 0) -> [OSCMessage] {
        drainTimed(waitMilliseconds: milliseconds).map(\.message.message)
    }

    /// What has arrived, with each message's bundle time tag and the Unix time it was read.
    public func drainTimed(waitMilliseconds milliseconds: Int32 = 0) -> [(message: TimedMessage, arrival: Double)] {
        var out: [(message: TimedMessage, arrival: Double)] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return out }
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return out }
            let arrival = OSCTimetag.now().unixTime
            if let messages = try? OSCCodec.decode(Array(buffer[0..<n])) { out += messages.map { ($0, arrival) } }
        }
    }

    /// Send `message` and wait up to `timeout` for the first message on `reply`.
    public func request(_ message: OSCMessage, reply: String, timeout: TimeInterval = 2) -> OSCMessage? {
        send(message)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = drain(waitMilliseconds: 10).first(where: { $0.address == reply }) { return found }
        }
        return nil
    }
}
