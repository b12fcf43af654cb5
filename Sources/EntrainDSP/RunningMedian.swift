/// The median of the last `capacity` values, updated in O(capacity) per value without
/// allocating: the window is kept twice, in arrival order (to know which value leaves) and
/// sorted (to read the median). Used for adaptive onset thresholds.
public struct RunningMedian {
    public let capacity: Int
    @usableFromInline let arrival: UnsafeMutablePointer<Float>
    @usableFromInline let sorted: UnsafeMutablePointer<Float>
    @usableFromInline var storedCount = 0
    public var count: Int { storedCount }
    @usableFromInline var oldest = 0

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        arrival = .allocate(capacity: capacity)
        sorted = .allocate(capacity: capacity)
        arrival.initialize(repeating: 0, count: capacity)
        sorted.initialize(repeating: 0, count: capacity)
    }

    public func deallocate() {
        arrival.deallocate()
        sorted.deallocate()
    }

    /// Add `value`; the oldest value leaves once the window is full.
    @inlinable
    public mutating func push(_ value: Float) {
        let s = sorted
        var n = storedCount
        if n == capacity {
            // Remove the leaving value from the sorted copy.
            let leaving = arrival[oldest]
            var i = 0
            while i < n - 1 && s[i] != leaving { i += 1 }
            while i < n - 1 { s[i] = s[i + 1]; i += 1 }
            n -= 1
        }
        var j = n
        while j > 0 && s[j - 1] > value { s[j] = s[j - 1]; j -= 1 }
        s[j] = value
        arrival[oldest] = value
        oldest = oldest + 1 == capacity ? 0 : oldest + 1
        storedCount = n + 1
    }

    /// The middle value (the upper one of the two middles for even counts); 0 when empty.
    @inlinable
    public var median: Float { storedCount == 0 ? 0 : sorted[storedCount / 2] }

    public mutating func reset() {
        storedCount = 0
        oldest = 0
    }
}
