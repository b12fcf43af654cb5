/// A mono delay line over preallocated storage: the LED and haptic signals wait in it so they
/// land with the sound the listener hears. The delay can change at any time (a new graph
/// latency); it then jumps, which for light and touch is right (no pitch to bend).
public struct DelayLine {
    @usableFromInline let buffer: UnsafeMutablePointer<Float>
    public let capacity: Int
    @usableFromInline var write = 0
    @usableFromInline var delayFrames = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        buffer = .allocate(capacity: self.capacity)
        buffer.initialize(repeating: 0, count: self.capacity)
    }

    public func deallocate() { buffer.deallocate() }

    /// Frames of delay, clamped to 0...capacity-1.
    public var delay: Int { delayFrames }

    @inlinable
    public mutating func setDelay(_ frames: Int) { delayFrames = min(max(0, frames), capacity - 1) }

    /// Push `x`, return the sample from `delay` frames ago.
    @inlinable @inline(__always)
    public mutating func process(_ x: Float) -> Float {
        buffer[write] = x
        var read = write - delayFrames
        if read < 0 { read += capacity }
        write = write + 1 == capacity ? 0 : write + 1
        return buffer[read]
    }

    /// Forget everything (a blackout must not replay after it).
    @inlinable
    public mutating func clear() { buffer.update(repeating: 0, count: capacity) }
}
