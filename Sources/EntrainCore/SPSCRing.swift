import Synchronization

/// Single-producer, single-consumer ring of plain values over preallocated storage: commands
/// from the control thread to the process thread, events (beats, onsets) the other way.
/// Neither side ever blocks. Indices run freely and are masked on access; acquire/release
/// ordering publishes each slot.
public struct SPSCRing<Element: BitwiseCopyable>: ~Copyable {
    public let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Element>
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
    @inlinable @inline(__always)
    public func push(_ element: Element) -> Bool {
        let write = writeIndex.load(ordering: .relaxed)
        let read = readIndex.load(ordering: .acquiring)
        guard write - read < capacity else { return false }
        slots[write & mask] = element
        writeIndex.store(write + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: the oldest element, if any, without removing it.
    @inlinable @inline(__always)
    public func peek() -> Element? {
        let read = readIndex.load(ordering: .relaxed)
        guard read != writeIndex.load(ordering: .acquiring) else { return nil }
        return slots[read & mask]
    }

    /// Consumer side: remove the element returned by the last `peek`.
    @inlinable @inline(__always)
    public func pop() {
        readIndex.store(readIndex.load(ordering: .relaxed) + 1, ordering: .releasing)
    }

    /// Consumer side: remove and return the oldest element.
    @inlinable @inline(__always)
    public func popFirst() -> Element? {
        guard let element = peek() else { return nil }
        pop()
        return element
    }
}

/// Control → engine: parameter changes, stop/start, panic.
public typealias CommandRing = SPSCRing<Command>
