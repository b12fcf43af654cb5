/// Stereo-linked look-ahead brickwall limiter whose ceiling holds by construction.
///
/// For each input frame j it needs gain g[j] = min(1, ceiling / peak[j]). It keeps m[j], the
/// minimum of g over the last L frames, lets it recover slowly (release), and smooths it with
/// an L-frame moving average a[j]. Every term of that average covers frame j-L+1, so
/// a[j] ≤ g[j-L+1]: applying a[j] to the input delayed by L-1 frames can never exceed the
/// ceiling. A final clamp absorbs float rounding; non-finite input becomes silence.
public struct PeakLimiter {
    @inlinable public static var capacity: Int { 1024 }
    public let lookahead: Int
    /// Frames of delay the limiter adds.
    @inlinable public var latency: Int { lookahead - 1 }
    @usableFromInline var ceiling: Float
    /// The ceiling as linear gain; never above 0 dBFS.
    @inlinable public var ceilingGain: Float { ceiling }
    @usableFromInline var releaseCoefficient: Float

    @usableFromInline var delayL = InlineArray<1024, Float>(repeating: 0)
    @usableFromInline var delayR = InlineArray<1024, Float>(repeating: 0)
    @usableFromInline var delayPosition = 0
    // Monotonic deque of (frame, required gain) for the sliding minimum.
    @usableFromInline var dequeFrame = InlineArray<1024, Int>(repeating: 0)
    @usableFromInline var dequeGain = InlineArray<1024, Float>(repeating: 1)
    @usableFromInline var dequeHead = 0
    @usableFromInline var dequeCount = 0
    // Moving average of the released gain.
    @usableFromInline var box = InlineArray<1024, Float>(repeating: 1)
    @usableFromInline var boxPosition = 0
    @usableFromInline var boxSum: Double
    @usableFromInline var released: Float = 1
    @usableFromInline var frame = 0
    /// The gain applied to the last frame (1 = untouched), for meters and tests.
    @usableFromInline var appliedGain: Float = 1
    @inlinable public var gain: Float { appliedGain }

    public init(sampleRate: Double, ceilingDecibels: Double, lookaheadSeconds: Double = 0.0015,
                releaseSeconds: Double = 0.08) {
        lookahead = max(2, min(Self.capacity, Int((lookaheadSeconds * sampleRate).rounded())))
        ceiling = Self.ceilingGain(ceilingDecibels)
        releaseCoefficient = Float(1 - FastMath.exp2(-1 / (releaseSeconds * sampleRate) * 1.442_695_040_888_963_4))
        boxSum = Double(lookahead)
    }

    /// Ceilings above -0.1 dBFS are lowered to it: the limiter can never be opened up to full scale.
    @inlinable
    public mutating func setCeiling(decibels: Double) { ceiling = Self.ceilingGain(decibels) }

    @inlinable
    static func ceilingGain(_ decibels: Double) -> Float {
        Float(FastMath.gain(fromDecibels: min(decibels.isNaN ? -1 : decibels, -0.1)))
    }

    /// Limit one stereo frame in place.
    @inlinable @inline(__always)
    public mutating func process(_ left: inout Float, _ right: inout Float) {
        let l: Float = left.isFinite ? left : 0
        let r: Float = right.isFinite ? right : 0
        let peak = max(abs(l), abs(r))
        let required: Float = peak > ceiling ? ceiling / peak : 1

        // Sliding minimum of `required` over frames (frame-L, frame].
        while dequeCount > 0 && dequeGain[(dequeHead + dequeCount - 1) % Self.capacity] >= required {
            dequeCount -= 1
        }
        let tail = (dequeHead + dequeCount) % Self.capacity
        dequeFrame[tail] = frame
        dequeGain[tail] = required
        dequeCount += 1
        if dequeFrame[dequeHead] <= frame - lookahead {
            dequeHead = (dequeHead + 1) % Self.capacity
            dequeCount -= 1
        }
        let windowMinimum = dequeGain[dequeHead]

        // Release: recover towards 1, never above the window minimum.
        released = min(windowMinimum, released + (1 - released) * releaseCoefficient)

        // L-frame moving average; re-summed exactly once per lap so rounding cannot drift.
        boxSum += Double(released) - Double(box[boxPosition])
        box[boxPosition] = released
        boxPosition += 1
        if boxPosition == lookahead {
            boxPosition = 0
            var exact = 0.0
            for i in 0..<lookahead { exact += Double(box[i]) }
            boxSum = exact
        }
        let g = Float(boxSum / Double(lookahead))
        appliedGain = g

        // Delay by L-1 frames: the slot holds input frame - (L-1) until we overwrite it.
        let delayedL = delayL[delayPosition]
        let delayedR = delayR[delayPosition]
        delayL[delayPosition] = l
        delayR[delayPosition] = r
        delayPosition += 1
        if delayPosition == lookahead - 1 { delayPosition = 0 }
        frame &+= 1

        left = min(ceiling, max(-ceiling, delayedL * g))
        right = min(ceiling, max(-ceiling, delayedR * g))
    }
}
