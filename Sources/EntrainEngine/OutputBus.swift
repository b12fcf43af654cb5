import EntrainDSP

/// The last stage of a stereo output: start/stop fade, panic mute, then the ceiling limiter.
/// The limiter is always in the path and its ceiling is capped below 0 dBFS, so no setting
/// can bypass it.
struct OutputBus {
    var limiter: PeakLimiter
    /// Fade position 0…1; the gain is sin²(π/2·position), smooth at both ends.
    var fade = Glide(0)
    var mute = Glide(1)
    /// Fade × mute, recomputed only while either moves.
    var gain: Float = 0
    var peakLeft: Float = 0
    var peakRight: Float = 0

    init(sampleRate: Double, ceilingDecibels: Double) {
        limiter = PeakLimiter(sampleRate: sampleRate, ceilingDecibels: ceilingDecibels)
    }

    func deallocate() { limiter.deallocate() }

    /// Fade towards fully on (1) or silent (0) over `frames`.
    mutating func fade(to position: Double, frames: Int) {
        fade.move(to: position, frames: frames)
        gain = gainNow()
    }

    /// Mute (panic) or unmute over `frames`.
    mutating func mute(_ muted: Bool, frames: Int) {
        mute.move(to: muted ? 0 : 1, frames: frames)
        gain = gainNow()
    }

    @inline(__always)
    func gainNow() -> Float {
        let s = FastMath.sinTurns(0.25 * fade.value)
        return Float(s * s * mute.value)
    }

    /// Advance fade and mute one frame and return the gain at their new values, so the last
    /// frame of a fade lands exactly on its end value.
    @inline(__always)
    mutating func advanceGain() -> Float {
        _ = fade.next()
        _ = mute.next()
        return gainNow()
    }

    /// True once a fade-out has finished.
    var isSilent: Bool { fade.value == 0 && !fade.isMoving }

    /// Fade, mute and limit `range` of the mix in `left`/`right` into `outLeft`/`outRight` (the
    /// port buffers): only limited samples are ever written there. `cue` (both ears) is added
    /// after the fade, under the mute and the limiter.
    @inline(__always)
    mutating func process(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, cue: UnsafePointer<Float>? = nil,
                          into outLeft: UnsafeMutablePointer<Float>, _ outRight: UnsafeMutablePointer<Float>,
                          _ range: Range<Int>) {
        var bus = self  // local copy: stores to the buffers could alias `self`
        defer { self = bus }
        if cue == nil && !bus.fade.isMoving && !bus.mute.isMoving {
            // Steady gain: when the limiter has nothing to do, it passes the block whole (the
            // same numbers as frame by frame below); only delayed, limited samples reach the ports.
            let n = range.count, l = outLeft + range.lowerBound, r = outRight + range.lowerBound
            if bus.limiter.passCalmBlock(left + range.lowerBound, right + range.lowerBound, gain: bus.gain,
                                         into: l, r, count: n) {
                bus.peakLeft = BlockMath.peak(l, count: n, floor: bus.peakLeft)
                bus.peakRight = BlockMath.peak(r, count: n, floor: bus.peakRight)
                return
            }
        }
        for i in range {
            if bus.fade.isMoving || bus.mute.isMoving { bus.gain = bus.advanceGain() }
            var c: Float = 0
            if let cue { c = cue[i] * Float(bus.mute.value) }
            var l = left[i] * bus.gain + c
            var r = right[i] * bus.gain + c
            bus.limiter.process(&l, &r)
            outLeft[i] = l
            outRight[i] = r
            bus.peakLeft = max(bus.peakLeft, abs(l))
            bus.peakRight = max(bus.peakRight, abs(r))
        }
    }
}
