#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A pipe a service's loop polls beside its sockets, so that another thread can cut its wait
/// short: to stop it, or because something was queued for it (a finished file load, a packet from
/// a WebSocket, a reply for a client). The loop can then wait without a timeout instead of
/// waking to look. Wakes that come while one is pending cost nothing (one byte in the pipe is enough).
public final class WakePipe: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let readEnd: Int32
    private let writeEnd: Int32
    private let pending = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)

    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure(description: "cannot make a wake pipe: \(String(cString: strerror(errno)))") }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// From any thread.
    public func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// From the loop, once poll said the pipe is readable: empties it, then takes new wakes again
    /// (the loop looks at every queue after this, so a wake in between is not lost).
    public func drain() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
        pending.store(false, ordering: .releasing)
    }

    deinit { close() }

    /// Once (later calls, and the deinit after one, do nothing).
    public func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        #if canImport(Glibc)
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
        #else
        _ = Darwin.close(readEnd)
        _ = Darwin.close(writeEnd)
        #endif
    }
}
