import EntrainCore

/// Something that applies on an engine frame.
protocol FrameStamped: BitwiseCopyable {
    var frame: Int64 { get }
}

extension Command: FrameStamped {}
extension AmbientEvent: FrameStamped {}

/// Items taken off a ring and waiting for their frame, kept sorted by frame (stable for equal
/// frames, so items for the same frame apply in the order they were sent). Fixed capacity,
/// owned by the process thread: a producer may send an item for an earlier frame than one it
/// sent before, and it still applies on its own frame.
///
/// The items live in a heap block allocated on the control side, not inline: a struct of
/// kilobytes inside the engine was copied whole by the optimiser to read `first`, on every
/// range rendered (a sixth of an offline render's time went to that copy).
struct FrameOrderedBuffer<Element: FrameStamped> {
    private let items: UnsafeMutablePointer<Element>
    let capacity: Int
    private(set) var count = 0

    init(capacity: Int, filler: Element) {
        self.capacity = capacity
        items = .allocate(capacity: capacity)
        items.initialize(repeating: filler, count: capacity)
    }

    /// Control side, once the engine is retired (the elements are plain bits: nothing to deinitialise).
    func deallocate() { items.deallocate() }

    var isFull: Bool { count == capacity }
    var first: Element? { count > 0 ? items[0] : nil }

    mutating func insert(_ item: Element) {
        var i = count
        while i > 0 && items[i - 1].frame > item.frame {
            items[i] = items[i - 1]
            i -= 1
        }
        items[i] = item
        count += 1
    }

    mutating func removeFirst() {
        for i in 1..<max(count, 1) { items[i - 1] = items[i] }
        count -= 1
    }
}

/// Commands waiting for their frame.
typealias PendingCommands = FrameOrderedBuffer<Command>
/// Ambient events waiting for their frame (more wait in the ring behind them).
typealias PendingAmbientEvents = FrameOrderedBuffer<AmbientEvent>
