import Foundation

/// A UDP receiver for the tests' protocol decoders: a thread keeps every datagram `decode` turns
/// into a frame (with its arrival, monotonic and Unix seconds) and counts the ones it refuses.
/// Bound to a free port on 127.0.0.1, or given a socket already bound (a multicast group).
public class DatagramReceiver<Frame: Sendable>: @unchecked Sendable {
    /// A datagram and its arrival into frames (none for a valid packet that completes nothing),
    /// or nil for an invalid one. Called on the receiver's thread only.
    public typealias Decode = (_ datagram: [UInt8], _ arrival: Double, _ unix: Double) -> [Frame]?
    public let port: Int
    private let fd: Int32
    private let decode: Decode
    private let kernelStamps: Bool
    private let lock = NSLock()
    private var frames: [Frame] = []
    private var invalid = 0
    private var thread: Thread?
    private var stopping = false
    /// Signalled by the receiving thread as it ends.
    private let ended = DispatchSemaphore(value: 0)

    /// On a free port of 127.0.0.1.
    public convenience init(decode: @escaping Decode) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var chosen = 0
        for _ in 0..<50 {
            let candidate = Loopback.candidatePort()
            if Loopback.bind(fd, port: candidate) { chosen = candidate; break }
        }
        guard chosen != 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        self.init(socket: fd, port: chosen, kernelStamps: true, decode: decode)
    }

    /// Receives on `fd`, already bound to `port`, until stopped. `kernelStamps`: arrivals from
    /// the kernel's stamp of each datagram (unicast only: looped-back multicast datagrams here
    /// carried stamps microseconds apart for frames 25 ms apart), else from when they are read.
    public init(socket fd: Int32, port: Int, kernelStamps: Bool = false, decode: @escaping Decode) {
        self.fd = fd
        self.port = port
        self.decode = decode
        self.kernelStamps = kernelStamps
        var size: Int32 = 4 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The kernel stamps each datagram as it arrives: a receiving thread woken late on a loaded
        // machine must not move the arrival (a rate measured from arrivals read 41.5 frames/s of 40).
        var on: Int32 = 1
        if kernelStamps { setsockopt(fd, SOL_SOCKET, Self.timestampNanoseconds, &on, socklen_t(MemoryLayout<Int32>.size)) }
        let thread = Thread { [self] in receive() }
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    public func stop() {
        lock.withLock { stopping = true }
        guard thread != nil else { return }
        ended.wait()  // at most one receive timeout (50 ms)
        thread = nil
        close(fd)
    }

    /// Every frame so far, and how many datagrams were not valid packets.
    public var received: (frames: [Frame], invalid: Int) { lock.withLock { (frames, invalid) } }

    /// Forget what came so far.
    public func clear() { lock.withLock { frames.removeAll() } }

    /// Wait until `condition` holds for the frames received (or `timeout` passes).
    @discardableResult
    public func wait(timeout: Double = 5, until condition: ([Frame]) -> Bool) -> Bool {
        waitUntil(timeout: timeout, interval: 0.01) { condition(received.frames) }
    }

    /// Linux's SO_TIMESTAMPNS and SIOCGSTAMPNS (the datagram just read's kernel stamp, Unix time).
    static var timestampNanoseconds: Int32 { 35 }
    static var stampOfLastDatagram: UInt { 0x8907 }

    /// When the datagram just read reached the socket: monotonic and Unix seconds, from the
    /// kernel's stamp (now, if there is none or it is not plausible).
    private func arrivalOfLastDatagram() -> (monotonic: Double, unix: Double) {
        var realtime = timespec(), stamp = timespec()
        let now = arrivalClockNow()
        clock_gettime(CLOCK_REALTIME, &realtime)
        let unixNow = Double(realtime.tv_sec) + Double(realtime.tv_nsec) / 1e9
        let unix = kernelStamps && ioctl(fd, Self.stampOfLastDatagram, &stamp) == 0 ? Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1e9 : 0
        // No stamp (it reads as 1970), or not a plausible one.
        guard unixNow - unix >= 0, unixNow - unix < 5 else { return (now, unixNow) }
        return (now - (unixNow - unix), unix)
    }

    private func receive() {
        defer { ended.signal() }
        var buffer = [UInt8](repeating: 0, count: 2048)
        while !lock.withLock({ stopping }) {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { continue }
            let (arrival, unix) = arrivalOfLastDatagram()
            let decoded = decode(Array(buffer[0..<n]), arrival, unix)
            lock.withLock { if let decoded { frames += decoded } else { invalid += 1 } }
        }
    }
}

/// Now on the clock of the receivers' arrivals (monotonic seconds): what a test compares them with.
public func arrivalClockNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
