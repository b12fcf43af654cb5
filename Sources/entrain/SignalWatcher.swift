import Glibc
import Synchronization

/// Counts SIGINT/SIGTERM arrivals; the run loop polls it. The handler only bumps an atomic.
enum SignalWatcher {
    static let count = Atomic<Int>(0)

    static func install() {
        _ = count.load(ordering: .relaxed)  // initialise the global before a handler can touch it
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { _ in SignalWatcher.count.add(1, ordering: .relaxed) }
        }
    }

    static var received: Int { count.load(ordering: .relaxed) }
}
