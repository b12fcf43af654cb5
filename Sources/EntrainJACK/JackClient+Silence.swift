import CJack
import Foundation
import Synchronization

/// A server that stops calling us without a word is gone all the same. PipeWire's libjack may
/// report nothing when the daemon dies (kill -9), and then no shutdown callback ever fires: so
/// while we are active, no process cycle for `silenceLimit` counts as the server going away.
extension JackClient {
    /// Long enough that a loaded machine's hiccup or the first cycle after activation is not
    /// taken for a death; several periods at the longest periods.
    static let silenceSeconds = 2.0
    static let silencePeriods = 16

    /// Control side (any thread): the server is gone, said by a callback or by its silence.
    public var serverGone: Bool {
        context.pointee.serverGone.load(ordering: .relaxed) || fellSilent()
    }

    /// From activation (or a return) on, cycles are expected.
    func watchCycles() {
        context.pointee.silence.watch(cycles: context.pointee.cycles.load(ordering: .relaxed), now: Self.monotonicNanos())
    }

    /// Not active (closing, or away): no cycles expected.
    func stopWatchingCycles() { context.pointee.silence.stop() }

    private func fellSilent() -> Bool {
        let periods = Double(Self.silencePeriods * max(1, bufferSize)) / max(1, sampleRate)
        let limit = UInt64(max(Self.silenceSeconds, periods) * 1e9)
        guard context.pointee.silence.silent(cycles: context.pointee.cycles.load(ordering: .relaxed),
                                             now: Self.monotonicNanos(), limit: limit) else { return false }
        context.pointee.serverGone.store(true, ordering: .relaxed)
        logger.warning("no process cycle for \(String(format: "%.1f", Double(limit) / 1e9)) s although the JACK server never said it stopped: taking it as gone")
        return true
    }

    static func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// The control side's watch over the process cycles: the count last seen and since when.
/// Atomics because status readers and the control loop may ask at once (a race only moves the
/// start of the window).
struct CycleWatch: ~Copyable {
    private let watching = Atomic<Bool>(false)
    private let seenCycles = Atomic<Int>(0)
    private let seenAt = Atomic<UInt64>(0)

    func watch(cycles: Int, now: UInt64) {
        seenCycles.store(cycles, ordering: .relaxed)
        seenAt.store(now, ordering: .relaxed)
        watching.store(true, ordering: .releasing)
    }

    func stop() { watching.store(false, ordering: .releasing) }

    /// True once, when no cycle ran for `limit` ns while watching (then it stops watching).
    func silent(cycles: Int, now: UInt64, limit: UInt64) -> Bool {
        guard watching.load(ordering: .acquiring) else { return false }
        if cycles != seenCycles.load(ordering: .relaxed) {
            seenCycles.store(cycles, ordering: .relaxed)
            seenAt.store(now, ordering: .relaxed)
            return false
        }
        guard now &- seenAt.load(ordering: .relaxed) > limit else { return false }
        return watching.exchange(false, ordering: .acquiringAndReleasing)
    }
}
