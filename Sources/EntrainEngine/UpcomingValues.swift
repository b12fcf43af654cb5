import EntrainCore

/// Parameter changes sent for frames the engine has not reached, in the order they will apply
/// (by frame, then as sent), so the values reported as in force change on their frame.
struct UpcomingValues {
    private var changes: [(frame: Int64, index: Int, value: Double)] = []

    /// At most this many are remembered (the scheduler's capacity and the ring's, with room):
    /// past it the oldest is applied early, so a report is never held back without bound.
    static let capacity = 16_384

    mutating func add(_ index: Int, _ value: Double, at frame: Int64) {
        let at = changes.lastIndex { $0.frame <= frame }.map { $0 + 1 } ?? 0
        changes.insert((frame, index, value), at: at)
    }

    /// Move every change due by `frame` into `values`.
    mutating func apply(through frame: Int64, to values: inout ParameterValues) {
        var due = changes.prefix { $0.frame <= frame }.count
        if changes.count - due > Self.capacity { due = changes.count - Self.capacity }
        for change in changes[..<due] { values[change.index] = change.value }
        changes.removeFirst(due)
    }
}
