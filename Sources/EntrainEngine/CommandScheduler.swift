import EntrainCore

/// Commands stamped for a frame further ahead than the engine needs to see yet. They wait here,
/// on the control side, in frame order (equal frames in the order sent); `take(through:)` hands
/// over what falls due. So the engine's bounded ring only ever holds the next moments, and how
/// far ahead a user may schedule is limited by `capacity` alone, never by the ring.
struct CommandScheduler {
    /// Most commands that may wait at once (a time-tagged flood is refused past it, with a reason).
    static let capacity = 100_000

    private var heap: [(command: Command, order: UInt64)] = []
    private var sent: UInt64 = 0

    var count: Int { heap.count }
    var isFull: Bool { heap.count >= Self.capacity }

    mutating func insert(_ command: Command) {
        heap.append((command, sent))
        sent &+= 1
        siftUp()
    }

    /// The earliest command, removed, if it is due at or before `frame`.
    mutating func takeFirst(through frame: Int64) -> Command? {
        guard let first = heap.first, first.command.frame <= frame else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && precedes(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && precedes(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.command
    }

    /// Put back a command `takeFirst` returned but the ring could not take: it stays first.
    mutating func putBack(_ command: Command) {
        // Its order number only has to beat the commands for the same frame sent after it.
        heap.append((command, 0))
        siftUp()
    }

    /// Restore the heap order after an append.
    private mutating func siftUp() {
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func precedes(_ a: (command: Command, order: UInt64), _ b: (command: Command, order: UInt64)) -> Bool {
        a.command.frame != b.command.frame ? a.command.frame < b.command.frame : a.order < b.order
    }
}
