/// A ping-pong delay: each line's output feeds the other through the feedback gain (and, when
/// set, a low-pass in the loop whose output is also what is heard). The lead feeds the left line
/// only, with the right at 0.75 × the left's time; the drums feed both, with note-division times.
/// Times glide (τ 50 ms, as the web's parameter smoothing) with interpolated reads.
public struct PingPongDelay {
    let left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>
    let capacity: Int
    var write = 0
    let sampleRate: Double
    /// Smoothed time (frames) of the left line, feedback and mix, and their targets.
    var time = 0.0, timeRight = 0.0, feedback: Float = 0, mix: Float = 0
    var targetTime = 0.0, targetTimeRight = 0.0, targetFeedback: Float = 0, targetMix: Float = 0
    var filterL = WebAudioBiquad(), filterR = WebAudioBiquad()
    var filtered = false
    let smoothing: Double
    var lastLeft: Float = 0, lastRight: Float = 0

    /// `maximumSeconds`: the longest left time (the right is shorter).
    public init(sampleRate: Double, maximumSeconds: Double = 2) {
        self.sampleRate = sampleRate
        capacity = Int(maximumSeconds * sampleRate) + 4
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        left.initialize(repeating: 0, count: capacity)
        right.initialize(repeating: 0, count: capacity)
        smoothing = 1 - FastMath.exp2(-1.442_695_040_888_963_4 / (0.05 * sampleRate))
    }

    public func deallocate() {
        left.deallocate()
        right.deallocate()
    }

    /// New targets: the lines' times (ms), feedback, wet mix. `immediately` jumps there.
    public mutating func set(milliseconds: Double, rightMilliseconds: Double, feedback fb: Double, mix m: Double,
                             immediately: Bool = false) {
        targetTime = min(max(milliseconds / 1000 * sampleRate, 1), Double(capacity - 3))
        targetTimeRight = min(max(rightMilliseconds / 1000 * sampleRate, 1), Double(capacity - 3))
        targetFeedback = Float(min(max(fb, 0), 0.95))
        targetMix = Float(max(m, 0))
        if immediately { time = targetTime; timeRight = targetTimeRight; feedback = targetFeedback; mix = targetMix }
    }

    /// A low-pass (Hz, Q 0.7 dB) in each line's loop.
    public mutating func setLoopFilter(frequency: Double) {
        filtered = true
        filterL.set(.lowpass, frequency: frequency, q: 0.7, gainDecibels: 0, sampleRate: sampleRate)
        filterR.set(.lowpass, frequency: frequency, q: 0.7, gainDecibels: 0, sampleRate: sampleRate)
    }

    @inline(__always)
    func read(_ line: UnsafeMutablePointer<Float>, _ delay: Double) -> Float {
        var position = Double(write) - delay
        if position < 0 { position += Double(capacity) }
        let i = Int(position), frac = Float(position - Double(i))
        let j = i + 1 == capacity ? 0 : i + 1
        return line[i] + (line[j] - line[i]) * frac
    }

    /// One frame into each line, the wet stereo pair out (before the mix gain: `wet` is it).
    @inline(__always)
    public mutating func process(_ inL: Float, _ inR: Float) -> SIMD2<Float> {
        time += (targetTime - time) * smoothing
        timeRight += (targetTimeRight - timeRight) * smoothing
        feedback += (targetFeedback - feedback) * Float(smoothing)
        mix += (targetMix - mix) * Float(smoothing)
        var outL = read(left, time), outR = read(right, timeRight)
        if filtered {
            outL = filterL.process(outL)
            outR = filterR.process(outR)
        }
        left[write] = inL + outR * feedback
        right[write] = inR + outL * feedback
        write = write + 1 == capacity ? 0 : write + 1
        return SIMD2(outL, outR)
    }

    /// The wet gain in force.
    public var wet: Float { mix }

    public mutating func clear() {
        left.update(repeating: 0, count: capacity)
        right.update(repeating: 0, count: capacity)
    }
}
