import Glibc
import Synchronization

/// A pipe the server's loop polls beside its sockets, so that another thread can cut its wait
/// short: to stop it, or because something was queued for a client. Wakes that come while one
/// is pending cost nothing (one byte in the pipe is enough).
final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let pending = Atomic<Bool>(false)

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw DiscoveryError("cannot make the server's wake pipe: \(String(cString: strerror(errno)))") }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// From any thread.
    func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// From the loop, once poll said the pipe is readable: empties it, then takes new wakes again
    /// (the loop looks at every queue after this, so a wake in between is not lost).
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
        pending.store(false, ordering: .releasing)
    }

    func close() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }
}
