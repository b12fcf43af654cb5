/// A parameter that moves to its target over a number of frames, linearly or exponentially
/// (constant ratio per frame: the natural sweep for frequencies). Per-sample, so no zipper noise.
public struct Glide {
    /// Read-only outside this file in spirit; stored publicly so inlinable code can update it.
    public var value: Double
    public var target: Double
    @usableFromInline var step: Double = 0
    @usableFromInline var exponential = false
    @usableFromInline var remaining = 0

    public init(_ value: Double) {
        self.value = value
        self.target = value
    }

    @inlinable public var isMoving: Bool { remaining > 0 }

    /// Start moving towards `target`, arriving after `frames` frames (0 = jump now).
    @inlinable
    public mutating func move(to newTarget: Double, frames: Int, exponential wantExponential: Bool = false) {
        target = newTarget
        guard frames > 0, newTarget != value else {
            value = newTarget
            remaining = 0
            return
        }
        remaining = frames
        // Exponential only where it is defined: both ends strictly positive.
        exponential = wantExponential && value > 0 && newTarget > 0
        if exponential {
            step = FastMath.exp2(FastMath.log2(newTarget / value) / Double(frames))
        } else {
            step = (newTarget - value) / Double(frames)
        }
    }

    /// Jump to a value immediately.
    @inlinable
    public mutating func reset(to newValue: Double) { move(to: newValue, frames: 0) }

    /// The current value, then advance one frame.
    @inlinable @inline(__always)
    public mutating func next() -> Double {
        let current = value
        if remaining > 0 {
            remaining -= 1
            if remaining == 0 {
                value = target  // land exactly, whatever rounding did on the way
            } else if exponential {
                value *= step
            } else {
                value += step
            }
        }
        return current
    }
}
