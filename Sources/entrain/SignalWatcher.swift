import Glibc
import Synchronization

/// Counts SIGINT/SIGTERM (stop: the first fades out, a second stops at once) and SIGHUP
/// (reload the session file) arrivals; the run loop polls them. The handlers only bump an
/// atomic. SIGPIPE is ignored: a reader of our stderr going away (`entrain run 2>&1 | head`)
/// must not kill a live client; writes to a closed pipe fail quietly instead.
enum SignalWatcher {
    static let count = Atomic<Int>(0)
    static let hangups = Atomic<Int>(0)

    static func install() {
        _ = count.load(ordering: .relaxed)  // initialise the globals before a handler can touch them
        _ = hangups.load(ordering: .relaxed)
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { _ in SignalWatcher.count.add(1, ordering: .relaxed) }
        }
        signal(SIGHUP) { _ in SignalWatcher.hangups.add(1, ordering: .relaxed) }
        ignoreBrokenPipes()
    }

    static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Stop signals so far.
    static var received: Int { count.load(ordering: .relaxed) }
    /// SIGHUPs so far.
    static var hangupCount: Int { hangups.load(ordering: .relaxed) }
}
