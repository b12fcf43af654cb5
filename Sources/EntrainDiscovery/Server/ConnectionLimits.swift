import Foundation
import Synchronization

/// How many connections the discovery server holds, from each address and in all, so that a
/// flood cannot take the file descriptors the client needs for its own files (preset and
/// last-used saves). The server's loop admits and releases; other threads may read the count.
final class ConnectionLimits: Sendable {
    struct Numbers: Sendable {
        /// Connections open at once from one peer address (any port).
        var perPeer = 32
        /// Connections open at once in all (fewer when the open-file limit is low: see `budget`).
        var total = 256
        /// The first request's head must be whole within this time.
        var headDeadline = 10.0
        /// File descriptors kept free for everything else the client opens.
        var reservedFileDescriptors = 128
    }

    let numbers: Numbers
    /// `numbers.total`, or fewer if the process's open-file limit would not leave the reserve.
    let total: Int

    private struct State {
        var perPeer: [String: Int] = [:]
        var open: Set<Int32> = []
        var closing = false
    }

    private let state = Mutex(State())

    init(_ numbers: Numbers, fileDescriptorLimit: Int = ConnectionLimits.openFileLimit(), openNow: Int = ConnectionLimits.openFileCount()) {
        self.numbers = numbers
        total = max(1, min(numbers.total, fileDescriptorLimit - openNow - numbers.reservedFileDescriptors))
    }

    /// Takes the connection on descriptor `fd` from `peer` into the count, or says why not.
    func admit(_ fd: Int32, peer: String) -> String? {
        state.withLock { s in
            if s.closing { return "the server is stopping" }
            if s.open.count >= total { return "\(total) connections open, the most in all" }
            let fromPeer = s.perPeer[peer, default: 0]
            if fromPeer >= numbers.perPeer { return "\(fromPeer) connections open from \(peer), the most from one address" }
            s.perPeer[peer] = fromPeer + 1
            s.open.insert(fd)
            return nil
        }
    }

    func release(_ fd: Int32, peer: String) {
        state.withLock { s in
            guard s.open.remove(fd) != nil else { return }
            let left = s.perPeer[peer, default: 1] - 1
            s.perPeer[peer] = left > 0 ? left : nil
        }
    }

    var openCount: Int { state.withLock { $0.open.count } }

    /// Refuses new connections from now on (the server is stopping).
    func refuseFromNow() { state.withLock { $0.closing = true } }

    /// The soft RLIMIT_NOFILE.
    static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)  // RLIM_INFINITY included
    }

    /// File descriptors this process has open now.
    static func openFileCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 64
    }
}

/// Log lines for refusals, at most one per kind every 5 s with a count of the ones left
/// unsaid, so that a flood of refused connections does not become a flood of log lines.
final class RefusalLog: Sendable {
    private struct Kind {
        var lastLogged: Double
        var unsaid: Int
    }

    private let kinds = Mutex<[String: Kind]>([:])
    private let write: @Sendable (String) -> Void
    static let interval = 5.0

    init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    func refused(_ kind: String, _ text: String, now: Double = Date().timeIntervalSince1970) {
        let line: String? = kinds.withLock { kinds in
            var entry = kinds[kind] ?? Kind(lastLogged: -.infinity, unsaid: 0)
            defer { kinds[kind] = entry }
            guard now - entry.lastLogged >= Self.interval else {
                entry.unsaid += 1
                return nil
            }
            let more = entry.unsaid > 0 ? " (and \(entry.unsaid) more like it since the last line)" : ""
            entry = Kind(lastLogged: now, unsaid: 0)
            return text + more
        }
        if let line { write(line) }
    }
}
