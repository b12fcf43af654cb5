/// A Schroeder allpass stage over an integer delay (the Kessho reverb's diffusers):
/// y_d = the stored value d samples ago; v = x − k·y_d is stored; out = y_d + k·v.
public struct SchroederAllpass {
    @usableFromInline let buffer: UnsafeMutablePointer<Float>
    public let delay: Int
    @usableFromInline var position = 0
    public var gain: Float

    public init(delay: Int, gain: Float) {
        self.delay = max(1, delay)
        self.gain = gain
        buffer = .allocate(capacity: self.delay)
        buffer.initialize(repeating: 0, count: self.delay)
    }

    public func deallocate() { buffer.deallocate() }

    @inlinable @inline(__always)
    public mutating func process(_ x: Float) -> Float {
        let delayed = buffer[position]
        let v = x - gain * delayed
        buffer[position] = v
        position = position + 1 == delay ? 0 : position + 1
        return delayed + gain * v
    }
}

/// Stages applied in order, in one heap block (a chain per channel and place in the reverb).
public struct AllpassChain {
    @usableFromInline let stages: UnsafeMutablePointer<SchroederAllpass>
    public let count: Int

    /// `delays` in samples at 48 kHz, scaled by `scale` (sample rate / 48 kHz) and floored.
    public init(delays: [Int], scale: Double, gain: Float) {
        count = delays.count
        stages = .allocate(capacity: max(1, delays.count))
        for (i, d) in delays.enumerated() {
            (stages + i).initialize(to: SchroederAllpass(delay: Int(Double(d) * scale), gain: gain))
        }
    }

    public func deallocate() {
        for i in 0..<count { stages[i].deallocate() }
        stages.deallocate()
    }

    public func setGain(_ gain: Float) { for i in 0..<count { stages[i].gain = gain } }

    @inlinable @inline(__always)
    public func process(_ x: Float) -> Float {
        var y = x
        for i in 0..<count { y = stages[i].process(y) }
        return y
    }

    /// `frames` samples through the chain in place, stage by stage: each stage's samples are
    /// the ones `process` gives sample by sample (a stage sees the same inputs in the same order).
    @inlinable @inline(__always)
    public func process(_ x: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<count {
            var stage = stages[i]
            for n in 0..<frames { x[n] = stage.process(x[n]) }
            stages[i] = stage
        }
    }
}
