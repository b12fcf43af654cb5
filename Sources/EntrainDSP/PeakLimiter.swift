/// Stereo-linked look-ahead brickwall limiter whose ceiling holds by construction.
///
/// For each input frame j it needs gain g[j] = min(1, ceiling / peak[j]). It keeps m[j], the
/// minimum of g over the last L frames, lets it recover slowly (release), and smooths it with
/// an L-frame moving average a[j]. Every term of that average covers frame j-L+1, so
/// a[j] ≤ g[j-L+1]: applying a[j] to the input delayed by L-1 frames can never exceed the
/// ceiling. A final clamp absorbs float rounding; non-finite input becomes silence.
public struct PeakLimiter {
    @inlinable public static var maximumLookahead: Int { 4096 }
    public let lookahead: Int
    /// Frames of delay the limiter adds.
    @inlinable public var latency: Int { lookahead - 1 }
    @usableFromInline var ceiling: Float
    /// The ceiling as linear gain; never above 0 dBFS.
    @inlinable public var ceilingGain: Float { ceiling }
    @usableFromInline var releaseCoefficient: Float

    // Delay lines, the sliding-minimum deque and the moving-average ring, in one allocation.
    @usableFromInline let delayL: UnsafeMutablePointer<Float>
    @usableFromInline let delayR: UnsafeMutablePointer<Float>
    @usableFromInline let dequeGain: UnsafeMutablePointer<Float>
    @usableFromInline let box: UnsafeMutablePointer<Float>
    @usableFromInline let dequeFrame: UnsafeMutablePointer<Int>
    @usableFromInline var delayPosition = 0
    @usableFromInline var dequeHead = 0
    @usableFromInline var dequeCount = 0
    @usableFromInline var boxPosition = 0
    @usableFromInline var boxSum: Double
    @usableFromInline var released: Float = 1
    /// Frames in a row with released gain 1 and no input over the ceiling. After `lookahead` of
    /// them every stored gain is 1, so the gain path can idle until the next over.
    @usableFromInline var calmFrames = 0
    @usableFromInline var frame = 0
    /// The gain applied to the last frame (1 = untouched), for meters and tests.
    @usableFromInline var appliedGain: Float = 1
    /// Frames where the final clamp had to cut more than rounding: should stay 0 (a hard clip
    /// means the gain path failed). Exposed for tests and meters.
    public var clampedFrames = 0
    @inlinable public var gain: Float { appliedGain }

    public init(sampleRate: Double, ceilingDecibels: Double, lookaheadSeconds: Double = 0.0015,
                releaseSeconds: Double = 0.08) {
        lookahead = max(2, min(Self.maximumLookahead, Int((lookaheadSeconds * sampleRate).rounded())))
        ceiling = Self.ceilingGain(ceilingDecibels)
        releaseCoefficient = Float(1 - FastMath.exp2(-1 / (releaseSeconds * sampleRate) * 1.442_695_040_888_963_4))
        boxSum = Double(lookahead)
        // The deque can hold lookahead + 1 entries for a moment (push before expiry).
        let floats = UnsafeMutablePointer<Float>.allocate(capacity: 4 * lookahead + 1)
        delayL = floats
        delayR = floats + lookahead
        box = floats + 2 * lookahead
        dequeGain = floats + 3 * lookahead
        delayL.initialize(repeating: 0, count: 2 * lookahead)
        box.initialize(repeating: 1, count: 2 * lookahead + 1)
        dequeFrame = .allocate(capacity: lookahead + 1)
        dequeFrame.initialize(repeating: 0, count: lookahead + 1)
    }

    /// Free the buffers (the limiter is a value type holding pointers; its owner frees it once).
    public func deallocate() {
        delayL.deallocate()
        dequeFrame.deallocate()
    }

    /// Ceilings above -0.1 dBFS are lowered to it: the limiter can never be opened up to full scale.
    @inlinable
    public mutating func setCeiling(decibels: Double) { ceiling = Self.ceilingGain(decibels) }

    @inlinable
    static func ceilingGain(_ decibels: Double) -> Float {
        Float(FastMath.gain(fromDecibels: min(decibels.isNaN ? -1 : decibels, -0.1)))
    }

    @inlinable @inline(__always)
    func wrap(_ index: Int) -> Int { index > lookahead ? index - lookahead - 1 : index }  // ring of lookahead + 1

    /// The gain path: sliding minimum, release, moving average. Returns the gain for the delayed frame.
    @inlinable @inline(__always)
    mutating func trackGain(_ required: Float) -> Float {
        // Sliding minimum of `required` over frames (frame-L, frame].
        while dequeCount > 0 && dequeGain[wrap(dequeHead + dequeCount - 1)] >= required {
            dequeCount -= 1
        }
        let tail = wrap(dequeHead + dequeCount)
        dequeFrame[tail] = frame
        dequeGain[tail] = required
        dequeCount += 1
        if dequeFrame[dequeHead] <= frame - lookahead {
            dequeHead = wrap(dequeHead + 1)
            dequeCount -= 1
        }
        let windowMinimum = dequeGain[dequeHead]

        // Release: recover towards 1, never above the window minimum.
        // The last 0.001 dB snaps to 1: in Float the step would fall below half an ulp and stall.
        var recovered = released + (1 - released) * releaseCoefficient
        if recovered > 0.9999 { recovered = 1 }
        released = min(windowMinimum, recovered)

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
        return Float(boxSum / Double(lookahead))

    }

    /// Limit a block that needs no limiting: while the gain path idles (every stored gain 1), a
    /// block whose samples × `gain` are all finite and within the ceiling only passes through the
    /// delay line, which is what `process` would do frame by frame, with the same numbers.
    /// Returns false, writing nothing, otherwise: the caller then runs `process` per frame.
    /// Only delayed (limited) samples reach `outLeft`/`outRight`; the input may be the output.
    @inlinable @inline(__always)
    public mutating func passCalmBlock(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, gain: Float,
                                       into outLeft: UnsafeMutablePointer<Float>, _ outRight: UnsafeMutablePointer<Float>,
                                       count: Int) -> Bool {
        // Rounding is monotonic, so the largest |x|·gain is (largest |x|)·gain: one reduction
        // over the unscaled input decides for the whole block (NaN and infinity fail it).
        guard calmFrames >= lookahead, gain >= 0,
              BlockMath.peakOrNaN(left, count: count) * gain <= ceiling,
              BlockMath.peakOrNaN(right, count: count) * gain <= ceiling else { return false }
        let length = lookahead - 1
        var done = 0
        while done < count {
            let span = min(count - done, length - delayPosition)
            BlockMath.delay(left + done, by: gain, through: delayL + delayPosition, into: outLeft + done, count: span)
            BlockMath.delay(right + done, by: gain, through: delayR + delayPosition, into: outRight + done, count: span)
            delayPosition += span
            if delayPosition == length { delayPosition = 0 }
            done += span
        }
        frame &+= count
        appliedGain = 1
        return true
    }

    /// Limit one stereo frame in place.
    @inlinable @inline(__always)
    public mutating func process(_ left: inout Float, _ right: inout Float) {
        let l: Float = left.isFinite ? left : 0
        let r: Float = right.isFinite ? right : 0
        let peak = max(abs(l), abs(r))
        let required: Float = peak > ceiling ? ceiling / peak : 1

        let g: Float
        if required == 1 && calmFrames >= lookahead {
            g = 1  // every entry of the window and of the average is 1: nothing to track
        } else {
            if calmFrames >= lookahead { dequeCount = 0 }  // leaving calm: the window held only 1s
            g = trackGain(required)
            calmFrames = required == 1 && released == 1 ? calmFrames + 1 : 0
        }
        appliedGain = g

        // Delay by L-1 frames: the slot holds input frame - (L-1) until we overwrite it.
        let delayedL = delayL[delayPosition]
        let delayedR = delayR[delayPosition]
        delayL[delayPosition] = l
        delayR[delayPosition] = r
        delayPosition += 1
        if delayPosition == lookahead - 1 { delayPosition = 0 }
        frame &+= 1

        let outL = delayedL * g, outR = delayedR * g
        // The clamp is the guarantee; the gain path should make it redundant (beyond rounding).
        if max(abs(outL), abs(outR)) > ceiling * 1.000_001 { clampedFrames &+= 1 }
        left = min(ceiling, max(-ceiling, outL))
        right = min(ceiling, max(-ceiling, outR))
    }
}
