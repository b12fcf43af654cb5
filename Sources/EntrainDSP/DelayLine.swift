/// A mono delay line over preallocated storage: the LED and haptic signals wait in it so they
/// land with the sound the listener hears. The first delay set takes effect at once; a later
/// change (a new graph latency after a re-patch) glides there, one frame gained or lost every
/// `slewEvery` frames: a jump would cut a strobe pulse short or play part of one twice, a
/// full-brightness flash off the strobe's grid. While gliding, pulses stretch or shrink by at
/// most 1/`slewEvery` (6 %), and every edge stays where the strobe put it, shifted smoothly.
public struct DelayLine {
    @usableFromInline let buffer: UnsafeMutablePointer<Float>
    public let capacity: Int
    @usableFromInline var write = 0
    @usableFromInline var delayFrames = 0
    @usableFromInline var targetFrames = 0
    @usableFromInline var primed = false
    @usableFromInline var slewCountdown = 0
    public static let slewEvery = 16

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        buffer = .allocate(capacity: self.capacity)
        buffer.initialize(repeating: 0, count: self.capacity)
    }

    public func deallocate() { buffer.deallocate() }

    /// Frames of delay now (gliding towards the last one set), within 0...capacity-1.
    public var delay: Int { delayFrames }

    /// The delay to reach: at once the first time (or after `forgetDelay`), else gliding.
    @inlinable
    public mutating func setDelay(_ frames: Int) {
        targetFrames = min(max(0, frames), capacity - 1)
        if !primed {
            delayFrames = targetFrames
            primed = true
        }
    }

    /// The next delay set takes effect at once (nobody was listening meanwhile).
    @inlinable
    public mutating func forgetDelay() { primed = false }

    /// Push `x`, return the sample from `delay` frames ago.
    @inlinable @inline(__always)
    public mutating func process(_ x: Float) -> Float {
        if delayFrames != targetFrames {
            slewCountdown -= 1
            if slewCountdown <= 0 {
                slewCountdown = Self.slewEvery
                delayFrames += delayFrames < targetFrames ? 1 : -1
            }
        }
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
