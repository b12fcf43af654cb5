import Foundation
import Synchronization

/// Our JACK calls that send to the server, kept apart from the latency callback's.
///
/// PipeWire's libjack (0.3.65) runs a client's callbacks with its own lock released, and sets a
/// port's latency — a message to the daemon — without taking that lock. A latency callback
/// setting ours while the control side is inside another call that sends (a `jack_connect`
/// restoring a connection after the server's return) interleaves the two messages, and the
/// library aborts the process. So the two exclude each other here: the control side waits for
/// the gate (the callback holds it for microseconds); the callback never waits — when the
/// control side holds the gate it leaves its work, and the control side asks JACK to recompute
/// latencies once out, which calls the callback again.
struct JackCallGate: ~Copyable {
    private let busy = Atomic<Bool>(false)
    /// A latency callback found the gate busy: latencies are to be recomputed.
    private let missed = Atomic<Bool>(false)

    /// Control side: wait for the gate.
    func enter() {
        while !busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { usleep(50) }
    }

    func leave() { busy.store(false, ordering: .releasing) }

    /// The latency callback: the gate if free. Marked missed first, so a control side leaving
    /// between the callback's try and its mark still sees it.
    func enterFromCallback() -> Bool {
        missed.store(true, ordering: .relaxed)
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return false }
        missed.store(false, ordering: .relaxed)
        return true
    }

    /// Whether a callback was missed since the last ask (and forget it).
    func takeMissed() -> Bool { missed.exchange(false, ordering: .acquiringAndReleasing) }
}
