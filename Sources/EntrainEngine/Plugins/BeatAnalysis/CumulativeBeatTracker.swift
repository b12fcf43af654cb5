import EntrainDSP
import Foundation

/// Beat phase by dynamic programming over the onset-strength function, causally.
///
/// Every analysis frame (two hops) gets a cumulative score: its onset strength plus the best
/// score one beat period earlier, discounted by how far that predecessor is from exactly one
/// period (a log-Gaussian in the ratio). The score so rewards chains of strong frames a period
/// apart, the idea of Ellis's 2007 dynamic-programming tracker made causal as in Stark's
/// real-time trackers. Half a period after each beat the tracker extends the score into the
/// future with no new input and takes the best frame near one period after the last beat as the
/// next beat. Beats so keep coming at the tempo when the onsets stop (a break) and fall back
/// into line as soon as they return, without re-locking.
/// Work per frame is bounded (about 1.5 periods of multiply-max; 2.5 periods squared once a
/// beat); every buffer is allocated in init.
struct CumulativeBeatTracker {
    /// Analysis frames per second and input samples per frame.
    let rate: Double
    let frameSamples: Int
    /// Longest period handled (the slowest tempo), frames; ring sizes follow from it.
    let maximumPeriod: Int
    private let size: Int
    private let odf: UnsafeMutablePointer<Double>
    /// The spectral flux between the kick and the hats (150 Hz–2 kHz) per frame: where snares,
    /// side sticks, bass notes and chords are heard, apart from the subdividing hats.
    private let midFlux: UnsafeMutablePointer<Double>
    private let score: UnsafeMutablePointer<Double>
    /// The end sample (engine frame) of every analysis frame in the ring.
    private let ends: UnsafeMutablePointer<Int64>
    private let future: UnsafeMutablePointer<Double>
    private let weights: UnsafeMutablePointer<Double>
    private var weightPeriod = 0.0
    private var count = 0

    /// The score's memory: the share carried from the previous beat (Stark uses 0.9).
    var alpha = 0.9
    /// How sharply a predecessor off the period is discounted.
    var tightness = 5.0
    /// In a break the next beat is the last one plus a period: what little plays there (held
    /// chords, a bass note a bar) says less about the phase than the drums did, and pulled the
    /// beats of break-100 up to 47 ms late over its four bars.
    var holdingPhase = false

    /// Beat period in frames (0: no tempo yet).
    private(set) var period = 0.0
    /// The frame (index) of the last beat and of the next one; the frame at which to predict.
    private var lastBeat = -1
    private(set) var nextBeat = -1
    /// The same two beats between frames: a beat the onsets did not place (a held phase, see
    /// `holdingPhase`) falls at the last one plus a period, rarely a whole number of frames
    /// (112.5 at 100 BPM); rounding each would move the phase by half a frame (2.7 ms) a beat.
    private var lastBeatExact = -1.0
    private var nextBeatExact = -1.0
    private var predictAt = -1

    init(hopRate: Double, hopSize: Int, minimumBPM: Double) {
        rate = hopRate / 2
        frameSamples = 2 * hopSize
        maximumPeriod = Int(60 * rate / minimumBPM) + 2
        var s = 1
        while s < 4 * maximumPeriod { s *= 2 }
        size = s
        odf = .allocate(capacity: s)
        odf.initialize(repeating: 0, count: s)
        midFlux = .allocate(capacity: s)
        midFlux.initialize(repeating: 0, count: s)
        score = .allocate(capacity: s)
        score.initialize(repeating: 0, count: s)
        ends = .allocate(capacity: s)
        ends.initialize(repeating: 0, count: s)
        future = .allocate(capacity: 2 * maximumPeriod + 2)
        future.initialize(repeating: 0, count: 2 * maximumPeriod + 2)
        weights = .allocate(capacity: 2 * maximumPeriod + 2)
        weights.initialize(repeating: 0, count: 2 * maximumPeriod + 2)
    }

    func deallocate() {
        odf.deallocate()
        midFlux.deallocate()
        score.deallocate()
        ends.deallocate()
        future.deallocate()
        weights.deallocate()
    }

    var bpm: Double { period > 0 ? 60 * rate / period : 0 }

    /// A new tempo (BPM). The weights follow at once; the beats already predicted stand.
    /// Returns true when the period changed by more than 10 % and the phase was chosen afresh
    /// (the next beat moved).
    mutating func setTempo(_ bpm: Double) -> Bool {
        guard bpm > 0 else { return false }
        let old = period
        period = min(Double(maximumPeriod), 60 * rate / bpm)
        if abs(period - weightPeriod) > 0.002 * period { computeWeights() }
        guard old > 0, abs(period - old) > 0.1 * old, lastBeat >= 0 else { return false }
        rephase()
        return true
    }

    /// The phase at which the last four beats of the current period collect the most onset
    /// strength: the score's memory is of the old period, so after a big change the beats start
    /// again from the onsets themselves.
    mutating func rephase() {
        let n = count - 1
        let whole = Int(period)
        var best = 1, top = -1.0
        for phase in 1...max(1, whole) {
            var sum = 0.0
            for k in 0..<4 {
                let c = n - phase - Int(Double(k) * period)
                guard c >= 1, n - c + 1 < size else { break }
                sum += peak(of: odf, around: c, radius: 1)
            }
            if sum > top { top = sum; best = phase }
        }
        setLast(n - best)
        setNextAfterLast(now: n)
    }

    /// Engine frame of the pending next beat, given the end of the newest analysis frame.
    func nextBeatFrame(end: Int64) -> Int64 { frameEnd(nextBeat, now: count - 1, end: end) }

    /// Weight of a predecessor `d` frames back, for d in period/2 ... 2·period.
    private mutating func computeWeights() {
        weightPeriod = period
        let limit = min(2 * maximumPeriod, Int(2 * period))
        for d in 0...limit {
            let d = Double(max(d, 1))
            let x = tightness * FastMath.log2(d / period) * ln2
            weights[Int(d)] = gaussian(x)
        }
        weights[0] = 0
    }

    private let ln2 = 0.693_147_180_559_945_3
    /// exp(−x²/2) without libm (not visible to the real-time check).
    private func gaussian(_ x: Double) -> Double { FastMath.exp2(-0.721_347_520_444_481_7 * x * x) }

    private var lowest: Int { max(1, Int(0.5 * period)) }
    private var highest: Int { min(2 * maximumPeriod, Int(2 * period)) }

    /// One analysis frame ending just before engine frame `end`, with onset strength `value` and
    /// mid-band flux `mid`. Returns the frame (engine) of a newly predicted beat, if this frame
    /// made a prediction.
    mutating func push(_ value: Double, mid: Double = 0, end: Int64) -> Int64? {
        let n = count
        let mask = size - 1
        odf[n & mask] = value
        midFlux[n & mask] = mid
        ends[n & mask] = end
        var best = 0.0
        if period > 0 {
            for d in lowest...highest where d <= n {
                let s = weights[d] * score[(n - d) & mask]
                if s > best { best = s }
            }
        }
        score[n & mask] = (1 - alpha) * value + alpha * best
        count += 1
        guard period > 0, n >= 2 * Int(period) else { return nil }
        if nextBeat < 0 {
            // No beat yet: the best-scoring frame of the last period is the last beat.
            var b = n, top = -1.0
            for back in 0..<Int(period) where score[(n - back) & mask] > top {
                top = score[(n - back) & mask]
                b = n - back
            }
            setLast(b)
            predict(from: n)
            return frameEnd(nextBeat, now: n, end: end)
        }
        if n == nextBeat {
            lastBeat = n
            lastBeatExact = nextBeatExact
        }
        guard n >= predictAt, nextBeat <= n else { return nil }
        predict(from: n)
        return frameEnd(nextBeat, now: n, end: end)
    }

    /// The score carried into the future with no input; the next beat is the best frame near
    /// one period after the last, the nearer the better (a Gaussian of a fifth of a period).
    private mutating func predict(from n: Int) {
        let expected = lastBeatExact + period
        if holdingPhase {
            setNext(max(n + 1, Int(FastMath.floor(expected + 0.5))), exact: expected)
            return
        }
        let mask = size - 1
        let horizon = min(2 * maximumPeriod, Int(1.5 * period) + 1)
        for j in 1...horizon {
            var best = 0.0
            for d in lowest...highest {
                let m = n + j - d
                let s = m > n ? future[m - n - 1] : (m >= 0 && n - m < size ? score[m & mask] : 0)
                let w = weights[d] * s
                if w > best { best = w }
            }
            future[j - 1] = alpha * best
        }
        let sigma = 0.2 * period
        var choice = n + 1, top = -1.0
        for j in 1...horizon {
            let x = (Double(n + j) - expected) / sigma
            let v = future[j - 1] * gaussian(x)
            if v > top { top = v; choice = n + j }
        }
        // The expected point itself when the choice is only its nearest frame.
        setNext(choice, exact: abs(Double(choice) - expected) <= 0.5 ? expected : Double(choice))
    }

    /// The next beat (frame index, and between frames), and the frame at which to predict the one after.
    private mutating func setNext(_ frame: Int, exact: Double) {
        nextBeat = frame
        nextBeatExact = exact
        predictAt = frame + max(1, Int(0.5 * period))
    }

    /// A last beat placed on a frame (by the onsets or a change of grid, not carried between frames).
    private mutating func setLast(_ frame: Int) {
        lastBeat = frame
        lastBeatExact = Double(frame)
    }

    /// The next beat a whole period after the last one, or two when one is not past frame `n`.
    private mutating func setNextAfterLast(now n: Int) {
        let step = max(1, Int(FastMath.floor(period + 0.5)))
        let next = lastBeat + step > n ? lastBeat + step : lastBeat + 2 * step
        setNext(next, exact: Double(next))
    }

    /// Mean onset strength at `count` past beats (the last beat, then every `step`-th one before
    /// it, from the `first`-th), shifted by `shift` periods: the peak within ±3 frames of each.
    /// How the music accents the grid: on the beats, half-way between them, on alternate beats.
    /// `mid`: the mid-band flux's peaks instead (what plays there besides the hats).
    func gridStrength(shift: Double, first: Int, step: Int, count: Int, mid: Bool = false) -> Double {
        guard period > 0, lastBeat >= 0 else { return 0 }
        let values = mid ? midFlux : odf
        var sum = 0.0, used = 0
        var k = first
        for _ in 0..<count {
            let centre = Int(FastMath.floor(Double(lastBeat) - Double(k) * period + shift * period + 0.5))
            k += step
            guard centre - 3 >= 0, centre + 3 < self.count, self.count - (centre - 3) < size else { continue }
            sum += peak(of: values, around: centre, radius: 3)
            used += 1
        }
        return used > 0 ? sum / Double(used) : 0
    }

    /// How clearly the last `beats` beats stand out of the onset strength: the sum of their peaks
    /// (±2 frames) against the mean of the same sum over every phase of the period. The beats'
    /// own phase is the best within 6 % of a period of it (a tempo a few percent off puts the
    /// older beats a little early or late). A groove's
    /// beats collect three to nine times the average; noise collects about the average, held pads
    /// about twice. 0 when there is no grid, or when the music (engine frame `musicStart`) began
    /// less than `beats` beats ago: silence before it would make any grid stand out.
    func phaseContrast(beats: Int, musicStart: Int64) -> Double {
        guard period > 0, lastBeat >= 0 else { return 0 }
        let mask = size - 1, whole = max(1, Int(period))
        // The oldest beat on or after the music's start (a tenth of a period's leeway); the phases
        // reach up to a period further back (frames before the first, index < 0, are silence).
        let oldest = lastBeat - Int(Double(beats - 1) * period)
        let earliest = oldest - whole - 2
        let oldestEnd = oldest >= 0 ? ends[oldest & mask] : Int64(oldest * frameSamples)
        guard count - earliest < size, Double(oldestEnd) >= Double(musicStart) - 0.1 * period * Double(frameSamples) else { return 0 }
        var total = 0.0, own = 0.0
        for phase in 0..<whole {
            var sum = 0.0
            for k in 0..<beats {
                let centre = lastBeat - phase - Int(FastMath.floor(Double(k) * period + 0.5))
                sum += peak(of: odf, around: centre, radius: 2)
            }
            total += sum
            if Double(min(phase, whole - phase)) <= 0.06 * period { own = max(own, sum) }
        }
        let mean = total / Double(whole)
        return mean > 0 ? own / mean : 0
    }

    /// The largest value of a frame ring (onset strength ≥ 0) within `radius` frames of `centre`;
    /// frames before the first (index < 0) are silence.
    @inline(__always)
    private func peak(of values: UnsafeMutablePointer<Double>, around centre: Int, radius: Int) -> Double {
        let mask = size - 1
        var top = 0.0
        for f in (centre - radius)...(centre + radius) where f >= 0 { top = max(top, values[f & mask]) }
        return top
    }

    /// Half the tempo, keeping every other beat: the last one's parity (`keepingLast`) or the
    /// one's before it. Returns the next beat's engine frame.
    mutating func halve(keepingLast: Bool, end: Int64) -> Int64 {
        let old = period, n = count - 1
        period = min(Double(maximumPeriod), 2 * old)
        computeWeights()
        if !keepingLast { setLast(lastBeat - Int(FastMath.floor(old + 0.5))) }
        setNextAfterLast(now: n)
        return frameEnd(nextBeat, now: n, end: end)
    }

    /// The beats were on the off-beats: move the pending next beat by half a period (earlier if
    /// that is still ahead). Returns its new engine frame.
    mutating func shiftHalfBeat(end: Int64) -> Int64 {
        let n = count - 1, half = Int(FastMath.floor(0.5 * period + 0.5))
        let next = nextBeat - half > n ? nextBeat - half : nextBeat + half
        setLast(next - Int(FastMath.floor(period + 0.5)))
        setNext(next, exact: Double(next))
        return frameEnd(nextBeat, now: n, end: end)
    }

    /// Engine frame of analysis frame `k` (≥ now), extrapolating past `now`'s end.
    private func frameEnd(_ k: Int, now n: Int, end: Int64) -> Int64 {
        end + Int64((k - n) * frameSamples)
    }
}
