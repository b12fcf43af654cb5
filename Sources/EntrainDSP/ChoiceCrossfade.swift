/// Weights for up to four alternatives (modes, waveforms, noise colours) that glide, so switching
/// from one to another is a short crossfade instead of a jump.
public struct ChoiceCrossfade {
    @inlinable public static var capacity: Int { 4 }
    @usableFromInline var weights = InlineArray<4, Glide>(repeating: Glide(0))
    /// Current weights, refreshed by `advance()`.
    public var current = InlineArray<4, Float>(repeating: 0)

    public init(selected: Int) {
        weights[selected].reset(to: 1)
        current[selected] = 1
    }

    /// Start fading towards `choice` over `frames`.
    @inlinable
    public mutating func select(_ choice: Int, frames: Int) {
        for i in 0..<Self.capacity { weights[i].move(to: i == choice ? 1 : 0, frames: frames) }
    }

    /// Advance one frame and refresh `current`.
    @inlinable @inline(__always)
    public mutating func advance() {
        for i in 0..<Self.capacity { current[i] = Float(weights[i].next()) }
    }
}
