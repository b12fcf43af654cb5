import EntrainCore

/// Commands taken off the ring and waiting for their frame, kept sorted by frame (stable for
/// equal frames, so commands for the same frame apply in the order they were sent).
/// Fixed capacity, owned by the process thread.
struct PendingCommands {
    static var capacity: Int { 512 }
    var items = InlineArray<512, Command>(repeating: Command(frame: 0, kind: .set))
    var count = 0

    var isFull: Bool { count == Self.capacity }
    var first: Command? { count > 0 ? items[0] : nil }


    mutating func insert(_ command: Command) {
        var i = count
        while i > 0 && items[i - 1].frame > command.frame {
            items[i] = items[i - 1]
            i -= 1
        }
        items[i] = command
        count += 1
    }


    mutating func removeFirst() {
        for i in 1..<max(count, 1) { items[i - 1] = items[i] }
        count -= 1
    }
}
