import EntrainDSP

/// Sums output pairs into one stereo file under the master ceiling. Each pair is already under
/// it, but their sum can reach twice as high, so the sum goes through its own ceiling limiter;
/// its look-ahead delay is taken back (the first frames out are dropped, and `flush` drains the
/// tail), so the mix lines up with the stems frame for frame.
final class MixdownLimiter {
    private var limiter: PeakLimiter
    private var toSkip: Int

    init(sampleRate: Double, ceilingDecibels: Double) {
        limiter = PeakLimiter(sampleRate: sampleRate, ceilingDecibels: ceilingDecibels)
        toSkip = limiter.latency
    }

    deinit { limiter.deallocate() }

    /// Mix `frames` frames of `pairs` ((left, right) each) and return the limited output ready
    /// to write (shorter than `frames` at the start, by the limiter's latency).
    func mix(_ pairs: [(UnsafePointer<Float>, UnsafePointer<Float>)], frames: Int) -> (left: [Float], right: [Float]) {
        var left = [Float](), right = [Float]()
        left.reserveCapacity(frames)
        right.reserveCapacity(frames)
        for i in 0..<frames {
            var l: Float = 0, r: Float = 0
            for (a, b) in pairs { l += a[i]; r += b[i] }
            emit(&l, &r, into: &left, &right)
        }
        return (left, right)
    }

    /// The last `latency` frames still inside the limiter.
    func flush() -> (left: [Float], right: [Float]) {
        var left = [Float](), right = [Float]()
        for _ in 0..<limiter.latency {
            var l: Float = 0, r: Float = 0
            emit(&l, &r, into: &left, &right)
        }
        return (left, right)
    }

    private func emit(_ l: inout Float, _ r: inout Float, into left: inout [Float], _ right: inout [Float]) {
        limiter.process(&l, &r)
        if toSkip > 0 { toSkip -= 1; return }
        left.append(l)
        right.append(r)
    }
}
