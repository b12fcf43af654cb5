import Foundation

/// One displayed DDP frame: the pixel bytes a display holds when a packet with the push flag
/// arrives, and when that was.
public struct ReceivedDDP: Sendable {
    public var sequence: Int
    public var dataType: UInt8
    public var bytes: [UInt8]
    /// Monotonic seconds, and Unix time (to set against OSC time tags).
    public var arrival: Double
    public var unixArrival: Double
}

/// A DDP display on 127.0.0.1, written from the protocol's document (3waylabs' DDP): a 10-byte
/// header — flags (version in the top two bits must be 1; 0x01 push; timecode 0x10 adds 4 bytes),
/// sequence (low 4 bits), data type, destination id, a 32-bit big-endian byte offset, a 16-bit
/// big-endian length — then the data, written into the display's buffer at the offset; a push
/// shows the buffer. Queries, replies and other destinations than 1 (the display) count invalid.
public final class DDPTestReceiver: @unchecked Sendable {
    public let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var frames: [ReceivedDDP] = []
    private var invalid = 0
    private var thread: Thread?
    private var stopping = false

    public init() throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var chosen = 0
        for _ in 0..<50 {
            let candidate = Int.random(in: 20_000...60_000)
            if Loopback.bind(fd, port: candidate) { chosen = candidate; break }
        }
        guard chosen != 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        port = chosen
        var size: Int32 = 4 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in receive() }
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    public func stop() {
        lock.withLock { stopping = true }
        while let thread, !thread.isFinished { usleep(10_000) }
        if thread != nil { close(fd) }
        thread = nil
    }

    /// Every frame shown so far, and how many datagrams were not valid DDP data packets.
    public var received: (frames: [ReceivedDDP], invalid: Int) { lock.withLock { (frames, invalid) } }

    public func clear() { lock.withLock { frames.removeAll() } }

    @discardableResult
    public func wait(timeout: Double = 5, until condition: ([ReceivedDDP]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(received.frames) { return true }
            usleep(10_000)
        }
        return condition(received.frames)
    }

    private var display = DDPDisplay()

    /// Takes one datagram: false when it is not a valid data packet for the display.
    func take(_ p: [UInt8], arrival: Double, unix: Double) -> Bool {
        guard let shown = display.take(p) else { return false }
        if let bytes = shown { frames.append(ReceivedDDP(sequence: Int(p[1] & 0x0F), dataType: p[2], bytes: bytes, arrival: arrival, unixArrival: unix)) }
        return true
    }

    private func receive() {
        var datagram = [UInt8](repeating: 0, count: 2048)
        while !lock.withLock({ stopping }) {
            let n = recv(fd, &datagram, datagram.count, 0)
            guard n > 0 else { continue }
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            let now = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
            let unix = Date().timeIntervalSince1970
            let bytes = Array(datagram[0..<n])
            lock.withLock { if !take(bytes, arrival: now, unix: unix) { invalid += 1 } }
        }
    }
}

/// A DDP display's buffer (see DDPTestReceiver for the rules).
public struct DDPDisplay {
    private var buffer: [UInt8] = []
    public init() {}

    /// nil: not a valid data packet; .some(nil): taken, nothing shown; .some(bytes): pushed, the frame shown.
    public mutating func take(_ p: [UInt8]) -> [UInt8]?? {
        guard p.count >= 10, p[0] >> 6 == 1, p[0] & 0x0E == 0, p[3] == 1 else { return nil }
        let header = p[0] & 0x10 != 0 ? 14 : 10
        let offset = Int(p[4]) << 24 | Int(p[5]) << 16 | Int(p[6]) << 8 | Int(p[7])
        let length = Int(p[8]) << 8 | Int(p[9])
        guard p.count == header + length, length <= 1440 else { return nil }
        if buffer.count < offset + length { buffer += [UInt8](repeating: 0, count: offset + length - buffer.count) }
        buffer.replaceSubrange(offset..<(offset + length), with: p[header...])
        return .some(p[0] & 0x01 != 0 ? buffer : nil)
    }
}
