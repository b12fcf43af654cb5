import Glibc
import Synchronization

/// The bytes waiting to go out on one connection. The loop thread adds HTTP answers and
/// WebSocket replies; the OSC server's thread adds what it sends a WebSocket client. What
/// `limited` additions may hold is capped: a client that never reads is cut off (`overflowed`)
/// instead of growing us without bound, and nothing ever waits for it.
final class Outbox: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var sent = 0
        var overflowed = false
        /// The last bytes were added (a WebSocket's close frame): nothing may follow them.
        var sealed = false
    }

    private let state = Mutex(State())
    /// Bytes a limited addition may leave waiting (beyond what the socket's own buffer took).
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Adds `bytes`; false (and nothing added) when `limited` and that would pass `limit`, which
    /// marks the outbox overflowed, or after the `last` bytes. `wasEmpty`: nothing was waiting
    /// before (the loop may be asleep, not watching for the socket to take more).
    @discardableResult
    func add(_ bytes: [UInt8], limited: Bool = false, last: Bool = false) -> (added: Bool, wasEmpty: Bool) {
        state.withLock { s in
            let waiting = s.bytes.count - s.sent
            if s.sealed { return (false, waiting == 0) }
            if s.overflowed || (limited && waiting + bytes.count > limit) {
                s.overflowed = true
                return (false, waiting == 0)
            }
            s.bytes += bytes
            s.sealed = last
            return (true, waiting == 0)
        }
    }

    var isEmpty: Bool { state.withLock { $0.bytes.count == $0.sent } }
    var waiting: Int { state.withLock { $0.bytes.count - $0.sent } }
    var overflowed: Bool { state.withLock { $0.overflowed } }

    /// Sends what the socket takes without blocking. Returns the bytes sent, or nil when the
    /// connection is broken (reset, closed by the peer).
    func flush(to fd: Int32) -> Int? {
        state.withLock { s in
            var total = 0
            while s.sent < s.bytes.count {
                let n = s.bytes[s.sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n > 0 {
                    s.sent += n
                    total += n
                } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    break
                } else {
                    return nil
                }
            }
            if s.sent == s.bytes.count {
                s.bytes.removeAll(keepingCapacity: s.bytes.capacity <= 1 << 16)
                s.sent = 0
            } else if s.sent >= 1 << 16 {
                s.bytes.removeSubrange(..<s.sent)  // now and then, not per write
                s.sent = 0
            }
            return total
        }
    }
}
