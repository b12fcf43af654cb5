/// Weights for up to four alternatives (modes, waveforms, noise colours) that glide, so switching
/// from one to another is a short crossfade instead of a jump. One progress value drives the
/// whole fade; a new choice mid-fade starts from the weights as they are.
public struct ChoiceCrossfade {
    @inlinable public static var capacity: Int { 4 }
    /// Current weights (sum 1), refreshed by `advance()`.
    public var current = InlineArray<4, Float>(repeating: 0)
    @usableFromInline var start = InlineArray<4, Float>(repeating: 0)
    public var selected: Int
    @usableFromInline var progress = Glide(1)

    public init(selected: Int) {
        self.selected = selected
        current[selected] = 1
    }

    @inlinable public var isMoving: Bool { progress.isMoving }

    /// Start fading towards `choice` over `frames` (0 = switch now).
    @inlinable
    public mutating func select(_ choice: Int, frames: Int) {
        start = current
        selected = choice
        progress.reset(to: 0)
        progress.move(to: 1, frames: frames)
        if frames == 0 { refresh(1) }
    }

    /// Advance one frame and refresh `current`.
    @inlinable @inline(__always)
    public mutating func advance() {
        guard progress.isMoving else { return }
        _ = progress.next()
        refresh(Float(progress.value))
    }

    /// Jump to the end of any fade in progress.
    @inlinable
    public mutating func settle() {
        progress.reset(to: 1)
        refresh(1)
    }

    @inlinable @inline(__always)
    mutating func refresh(_ t: Float) {
        for i in 0..<Self.capacity {
            let target: Float = i == selected ? 1 : 0
            current[i] = start[i] + (target - start[i]) * t
        }
    }
}
