/// Web Audio `setTargetAtTime` on a frame clock: the value glides exponentially toward a
/// target, v(t) = target + (v(t0) − target)·e^(−(t − t0)/τ), from the event's start frame until
/// the next event. A short queue of scheduled events lets an ADSR or a crossfade be set up in
/// one go at control rate; the per-frame step is one multiply-add.
///
/// Exact per frame (the factor e^(−1/(τ·rate)) is applied once per frame), except that an event
/// scheduled in the past starts at the next frame from the value held then, not retroactively.
/// The queue storage is allocated in `init`; call `deallocate()` when done (like RunningMedian).
public struct TargetEnvelope {
    /// Events that can wait in the queue at once; scheduling into a full queue is refused.
    public static let capacity = 8

    public let sampleRate: Double
    @usableFromInline let starts: UnsafeMutablePointer<Int64>
    @usableFromInline let targets: UnsafeMutablePointer<Double>
    @usableFromInline let factors: UnsafeMutablePointer<Double>
    @usableFromInline var pending = 0
    @usableFromInline var clock: Int64 = 0
    @usableFromInline var current: Double
    @usableFromInline var target: Double
    /// Per-frame decay factor of the distance to the target (1 = hold).
    @usableFromInline var factor: Double = 1

    public init(value: Double = 0, sampleRate: Double) {
        precondition(sampleRate > 0)
        self.sampleRate = sampleRate
        current = value
        target = value
        starts = .allocate(capacity: Self.capacity)
        targets = .allocate(capacity: Self.capacity)
        factors = .allocate(capacity: Self.capacity)
    }

    public func deallocate() {
        starts.deallocate(); targets.deallocate(); factors.deallocate()
    }

    /// The value the next call to `next()` returns (before any event due at `frame`).
    public var value: Double { current }
    /// The frame that the next call to `next()` renders.
    public var frame: Int64 { clock }
    /// The target of the running segment.
    public var currentTarget: Double { target }
    /// Number of events still waiting.
    public var pendingEvents: Int { pending }

    /// e^(−1/(τ·rate)) without libm; τ ≤ 0 gives 0, i.e. a jump (Web Audio's setValueAtTime).
    @inlinable
    public static func factor(timeConstant: Double, sampleRate: Double) -> Double {
        guard timeConstant > 0 else { return 0 }
        return FastMath.exp2(-1.442_695_040_888_963_4 / (timeConstant * sampleRate))  // log2(e)
    }

    /// From `frame` on, glide toward `target` with time constant `timeConstant` seconds
    /// (0 = jump there at `frame`). Events at the same frame run in the order scheduled.
    /// Returns false if the queue is full.
    @discardableResult @inlinable
    public mutating func setTarget(_ target: Double, timeConstant: Double, atFrame frame: Int64) -> Bool {
        guard pending < Self.capacity else { return false }
        let f = Self.factor(timeConstant: timeConstant, sampleRate: sampleRate)
        var i = pending
        while i > 0 && starts[i - 1] > frame {  // keep the queue sorted, stable for equal frames
            starts[i] = starts[i - 1]; targets[i] = targets[i - 1]; factors[i] = factors[i - 1]
            i -= 1
        }
        starts[i] = frame; targets[i] = target; factors[i] = f
        pending += 1
        return true
    }

    /// Jump to `value` at `frame` (setValueAtTime).
    @discardableResult @inlinable
    public mutating func setValue(_ value: Double, atFrame frame: Int64) -> Bool {
        setTarget(value, timeConstant: 0, atFrame: frame)
    }

    /// Drop every event starting at or after `frame` (cancelScheduledValues); the running
    /// segment keeps going.
    @inlinable
    public mutating func cancel(fromFrame frame: Int64) {
        while pending > 0 && starts[pending - 1] >= frame { pending -= 1 }
    }

    /// Stop gliding and hold the present value, with nothing scheduled.
    public mutating func hold() {
        pending = 0
        target = current
        factor = 1
    }

    /// The value at the current frame, then advance one frame.
    @inlinable @inline(__always)
    public mutating func next() -> Double {
        if pending > 0 && starts[0] <= clock { startDueEvents() }
        let out = current
        let distance = (current - target) * factor
        // Snap once inaudibly close so the tail never turns subnormal.
        current = abs(distance) < 1e-15 ? target : target + distance
        clock += 1
        return out
    }

    @usableFromInline
    mutating func startDueEvents() {
        var used = 0
        while used < pending && starts[used] <= clock {
            target = targets[used]
            factor = factors[used]
            if factor == 0 { current = target }
            used += 1
        }
        for i in used..<pending {
            starts[i - used] = starts[i]; targets[i - used] = targets[i]; factors[i - used] = factors[i]
        }
        pending -= used
    }
}
