import Synchronization

/// Two 64-bit words that one thread writes and another reads as a consistent pair, with no lock:
/// a sequence lock. Used between the process thread and the control side in both directions
/// (the cycle's anchor one way, the phrase grid the other). Other types go in as bit patterns
/// (`UInt64(bitPattern:)`, `Double.bitPattern`).
///
/// The sequence is 0 before the first write (and after `clear`), odd while a write is under way,
/// even once it is done. A reader takes the words only when the sequence was even and the same
/// before and after reading them, so it never returns a pair torn by a concurrent write.
/// Plain atomics stored inline: no allocation, no lock, no reference counting, on either side.
public struct SeqLockedPair: ~Copyable {
    @usableFromInline let sequence = Atomic<Int>(0)
    @usableFromInline let first = Atomic<UInt64>(0)
    @usableFromInline let second = Atomic<UInt64>(0)

    public init() {}

    /// Writer side; one writing thread only. The release fence keeps the word stores after the
    /// first (odd) increment; the releasing second increment publishes them.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    @inlinable
    public func write(_ a: UInt64, _ b: UInt64) {
        let current = sequence.load(ordering: .relaxed)
        sequence.store(current + 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        first.store(a, ordering: .relaxed)
        second.store(b, ordering: .relaxed)
        sequence.store(current + 2, ordering: .releasing)
    }

    /// One attempt, bounded (what the process thread may do): the pair, or nil when nothing was
    /// written yet, a write is under way, or one happened while reading. The acquiring load of the
    /// sequence orders the word loads after it, and the acquire fence orders them before the second
    /// load, also on weakly ordered CPUs (ARM boards).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    @inlinable
    public func read() -> (UInt64, UInt64)? {
        let before = sequence.load(ordering: .acquiring)
        guard before != 0 && before & 1 == 0 else { return nil }
        let a = first.load(ordering: .relaxed), b = second.load(ordering: .relaxed)
        atomicMemoryFence(ordering: .acquiring)
        return sequence.load(ordering: .relaxed) == before ? (a, b) : nil
    }

    /// Retries until it gets a whole pair; nil only when nothing was written. For a reader off the
    /// process thread whose writer is the process thread (a write takes nanoseconds), never the
    /// other way round.
    public func readRetrying() -> (UInt64, UInt64)? {
        while true {
            if sequence.load(ordering: .relaxed) == 0 { return nil }
            if let pair = read() { return pair }
        }
    }

    /// Readers get nil until the next write (a new JACK handle has no cycle yet).
    public func clear() {
        sequence.store(0, ordering: .releasing)
    }
}
