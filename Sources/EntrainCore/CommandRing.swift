import Synchronization

/// Single-producer, single-consumer ring of commands over preallocated storage.
/// The producer is the control thread, the consumer the process thread; neither ever blocks.
/// Indices run freely and are masked on access; acquire/release ordering publishes each slot.
public struct CommandRing: ~Copyable {
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Command>
    @usableFromInline let writeIndex = Atomic<Int>(0)
    @usableFromInline let readIndex = Atomic<Int>(0)

    /// `capacity` is rounded up to a power of two.
    public init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        self.capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
    }

    deinit { slots.deallocate() }

    /// Producer side. Returns false (and drops nothing already queued) when the ring is full.
    public func push(_ command: Command) -> Bool {
        let write = writeIndex.load(ordering: .relaxed)
        let read = readIndex.load(ordering: .acquiring)
        guard write - read < capacity else { return false }
        slots[write & mask] = command
        writeIndex.store(write + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: the oldest command, if any, without removing it.
    @inlinable @inline(__always)
    public func peek() -> Command? {
        let read = readIndex.load(ordering: .relaxed)
        guard read != writeIndex.load(ordering: .acquiring) else { return nil }
        return slots[read & mask]
    }

    /// Consumer side: remove the command returned by the last `peek`.
    @inlinable @inline(__always)
    public func pop() {
        readIndex.store(readIndex.load(ordering: .relaxed) + 1, ordering: .releasing)
    }
}
