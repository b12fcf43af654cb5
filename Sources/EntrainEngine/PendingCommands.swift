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
struct FrameOrderedBuffer<let capacity: Int, Element: FrameStamped> {
    var items: InlineArray<capacity, Element>
    var count = 0

    init(filler: Element) { items = InlineArray(repeating: filler) }

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
typealias PendingCommands = FrameOrderedBuffer<512, Command>
/// Ambient events waiting for their frame (more wait in the ring behind them).
typealias PendingAmbientEvents = FrameOrderedBuffer<128, AmbientEvent>
