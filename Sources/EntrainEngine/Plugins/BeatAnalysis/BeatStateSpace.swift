import EntrainDSP
import Foundation

/// Tempo and beat phase as one hidden state, filtered forward one analysis frame at a time (the
/// bar-pointer model of Whiteley, Cemgil & Godsill, in the discrete form of Krebs, Böck &
/// Widmer 2015, forward only: causal).
///
/// A state is a tempo (a beat interval of a whole number of frames, log-spaced over the range)
/// and a position inside the beat. Each frame every state moves one position on; from a beat's
/// last position it enters the first of any tempo, with a probability falling fast with the
/// tempo ratio (a steady song keeps its tempo, a ramp moves through neighbours). The activation
/// `a` in (0, 1) is the likelihood of the beat's first 27 ms, (1 − a) / 15 that of the rest.
/// The tempo range and the hint weigh the beat transitions: outside the range nothing enters,
/// and a tempo an octave from `/beat/tempo/prefer` loses a little at each beat.
/// All memory is allocated at init; `step` is real-time safe.
struct BeatStateSpace {
    let tempoCount: Int
    let stateCount: Int
    let frameRate: Double
    /// Frames per beat, first state and states in the beat's first 27 ms, per tempo.
    let intervals: UnsafeMutablePointer<Int>
    private let firsts: UnsafeMutablePointer<Int>
    private let beatLengths: UnsafeMutablePointer<Int>
    /// Row `from`, column `to`, rows summing to 1.
    private let transition: UnsafeMutablePointer<Double>
    /// The same matrix stored by column (row `to`): what enters a tempo is then one
    /// contiguous run, summed in the same order.
    private let transitionInto: UnsafeMutablePointer<Double>
    /// Weight on entering each tempo: the range and the hint.
    private let entry: UnsafeMutablePointer<Double>
    private let outflow: UnsafeMutablePointer<Double>
    /// Per tempo, 1 / its transitions' total into tempi in range: a beat at the range's edge
    /// keeps its mass instead of leaking it into tempi that do not exist.
    private let stayInRange: UnsafeMutablePointer<Double>
    /// Tempi outside the range whose mass has all left (in both buffers): `step` passes them by.
    /// With the default range (60–200 BPM of 40–300) that is half the states, the slowest ones.
    private let resting: UnsafeMutablePointer<Bool>
    /// The tempi that may hold mass lie in `lowestLive..<highestLive` (outflow is 0 outside).
    private var lowestLive = 0, highestLive = 0
    private var p: UnsafeMutablePointer<Double>
    private var q: UnsafeMutablePointer<Double>
    static var observationLambda: Double { 16 }
    /// The activation that tells nothing (a beat's states and the others alike): a lost frame.
    static var neutral: Double { 1 / observationLambda }
    static var tempoChange: Double { 100 }
    /// How long after a beat its attack may raise the activation: the beat's states that see
    /// `a`. A time, not a share of the beat: a share (a sixteenth, as for a smooth learned
    /// activation) gives a slow tempo more frames to find empty, and a click every beat at
    /// 100 BPM was followed at 200 (beat F 0.85 on the synthesized corpus, 0.97 with this).
    static var beatSeconds: Double { 0.027 }

    /// Frames before a beat's first that may carry its attack too (an attack a little early):
    /// 11 ms. With the window only after the beat, a tempo whose interval is a little longer
    /// than the music's (120 BPM is 93.75 frames; the grid has 93 and 95) kept the attack in
    /// the window by putting the beat early: beats 15–19 ms early on rock-120 and h2-tr808-125.
    let preFrames: Int
    static var earlySeconds: Double { 0.011 }
    /// The most likely tempo (its index) and position, after the last step.
    private(set) var tempo = 0
    private(set) var position = 0

    init(frameRate: Double, slowest: Double = 40, fastest: Double = 300, tempi: Int = 96) {
        self.frameRate = frameRate
        preFrames = Int((Self.earlySeconds * frameRate).rounded())
        var lengths: [Int] = []
        let shortest = frameRate * 60 / fastest, longest = frameRate * 60 / slowest
        for i in 0..<tempi {
            let interval = Int((shortest * pow(longest / shortest, Double(i) / Double(tempi - 1))).rounded())
            if interval != lengths.last { lengths.append(interval) }
        }
        tempoCount = lengths.count
        stateCount = lengths.reduce(0, +)
        intervals = .allocate(capacity: tempoCount)
        firsts = .allocate(capacity: tempoCount)
        beatLengths = .allocate(capacity: tempoCount)
        var first = 0
        for (k, length) in lengths.enumerated() {
            intervals[k] = length
            firsts[k] = first
            beatLengths[k] = min(length, max(1, Int((Self.beatSeconds * frameRate).rounded())))
            first += length
        }
        transition = .allocate(capacity: tempoCount * tempoCount)
        for i in 0..<tempoCount {
            var sum = 0.0
            for j in 0..<tempoCount {
                let w = exp(-Self.tempoChange * abs(Double(lengths[j]) / Double(lengths[i]) - 1))
                transition[i * tempoCount + j] = w
                sum += w
            }
            for j in 0..<tempoCount { transition[i * tempoCount + j] /= sum }
        }
        transitionInto = .allocate(capacity: tempoCount * tempoCount)
        for i in 0..<tempoCount {
            for j in 0..<tempoCount { transitionInto[j * tempoCount + i] = transition[i * tempoCount + j] }
        }
        entry = .allocate(capacity: tempoCount)
        entry.initialize(repeating: 1, count: tempoCount)
        outflow = .allocate(capacity: tempoCount)
        outflow.initialize(repeating: 0, count: tempoCount)
        stayInRange = .allocate(capacity: tempoCount)
        stayInRange.initialize(repeating: 1, count: tempoCount)
        resting = .allocate(capacity: tempoCount)
        resting.initialize(repeating: false, count: tempoCount)
        highestLive = tempoCount
        p = .allocate(capacity: stateCount)
        q = .allocate(capacity: stateCount)
        p.initialize(repeating: 0, count: stateCount)
        q.initialize(repeating: 0, count: stateCount)
        reset()
    }

    func deallocate() {
        intervals.deallocate()
        firsts.deallocate()
        beatLengths.deallocate()
        transition.deallocate()
        transitionInto.deallocate()
        entry.deallocate()
        outflow.deallocate()
        stayInRange.deallocate()
        resting.deallocate()
        p.deallocate()
        q.deallocate()
    }

    func bpm(ofTempo k: Int) -> Double { frameRate * 60 / Double(intervals[k]) }

    private let log2e = 1.442_695_040_888_963_4

    /// The range (nothing enters a tempo outside it) and the hint: a tempo `octaves` from
    /// `prefer` keeps exp(−hintStrength · octaves²) of what enters it at each beat.
    mutating func setTempi(minimum: Double, maximum: Double, prefer: Double, hintStrength: Double) {
        for k in 0..<tempoCount {
            let bpm = bpm(ofTempo: k)
            let octaves = FastMath.log2(bpm / max(prefer, 1))
            // In range when the tempi this interval stands for (half a frame either side) reach
            // into it: at 187.5 frames/s, 200 BPM is 56.25 frames, stood for by 56 (200.9 BPM).
            let fastest = frameRate * 60 / (Double(intervals[k]) - 0.5), slowest = frameRate * 60 / (Double(intervals[k]) + 0.5)
            entry[k] = fastest < minimum || slowest > maximum ? 0 : FastMath.exp2(-hintStrength * log2e * octaves * octaves)
        }
        for i in 0..<tempoCount {
            var inRange = 0.0
            for k in 0..<tempoCount where entry[k] > 0 { inRange += transition[i * tempoCount + k] }
            stayInRange[i] = inRange > 0 ? 1 / inRange : 0
        }
        for k in 0..<tempoCount where entry[k] > 0 { resting[k] = false }  // a tempo out of range rests once empty
        findLiveTempi()
    }

    /// The span of tempi that may hold mass.
    private mutating func findLiveTempi() {
        lowestLive = (0..<tempoCount).first { !resting[$0] } ?? 0
        highestLive = ((0..<tempoCount).last { !resting[$0] } ?? -1) + 1
    }

    /// Every tempo in the range equally likely (each of its positions alike).
    mutating func reset() {
        var total = 0.0
        for k in 0..<tempoCount {
            let share = entry[k] > 0 ? 1 / Double(intervals[k]) : 0
            (p + firsts[k]).update(repeating: share, count: intervals[k])
            (q + firsts[k]).update(repeating: 0, count: intervals[k])
            resting[k] = entry[k] == 0
            total += share * Double(intervals[k])
        }
        if total > 0 { for s in 0..<stateCount { p[s] /= total } }
        findLiveTempi()
    }

    /// One frame with activation `a` (0 < a < 1).
    mutating func step(_ a: Double) {
        for k in 0..<tempoCount { outflow[k] = p[firsts[k] + intervals[k] - 1] * stayInRange[k] }
        let beat = a, other = (1 - a) / (Self.observationLambda - 1)
        var total = 0.0
        // The most likely tempo: the one with the most mass (before the scaling, one factor for all).
        var bestMass = -1.0, likeliest = tempo
        var restingChanged = false
        // A resting tempo's states are 0 in both buffers and stay so: what they would add is 0.
        for k in 0..<tempoCount where !resting[k] {
            let from = p + firsts[k], to = q + firsts[k], n = intervals[k]
            var entering = 0.0
            if entry[k] > 0 {
                entering = Self.dot(outflow, transitionInto + k * tempoCount, count: tempoCount,
                                    nonZero: lowestLive..<highestLive) * entry[k]
            }
            // The beat's first frame must sound; the rest of its window may (an attack spread
            // over frames, a little early or late) but is not held against the beat when it
            // does not: an empty frame there costs nothing more than anywhere else.
            to[0] = entering * beat
            let head = beatLengths[k], late = max(beat, other), early = n - preFrames
            // Positions 1..<head and early..<n see `late`, the ones between `other`: three
            // plain loops instead of a choice per state.
            let lateUntil = min(head, n), otherUntil = max(lateUntil, min(early, n))
            // (`previous[j]` is from[j − 1] without a checked subtraction per state, which
            // kept the loops from running in vector registers.)
            let previous = from - 1
            for j in 1..<max(lateUntil, 1) { to[j] = previous[j] * late }
            for j in max(lateUntil, 1)..<max(otherUntil, 1) { to[j] = previous[j] * other }
            for j in max(otherUntil, 1)..<n { to[j] = previous[j] * late }
            let mass = Self.sum(to, count: n)
            total += mass
            if mass > bestMass { bestMass = mass; likeliest = k }
            if mass == 0 && entry[k] == 0 {  // out of range and emptied: clear the other buffer and rest
                from.update(repeating: 0, count: n)
                resting[k] = true
                restingChanged = true
            }
        }
        swap(&p, &q)
        guard total > 0, total.isFinite else { reset(); return }
        if restingChanged { findLiveTempi() }
        let scale = 1 / total
        for k in lowestLive..<highestLive where !resting[k] {
            let run = p + firsts[k]
            for j in 0..<intervals[k] { run[j] *= scale }
        }
        tempo = likeliest
        let states = p + firsts[tempo]
        var best = -1.0
        for j in 0..<intervals[tempo] where states[j] > best {
            best = states[j]
            position = j
        }
    }

    /// x[0] + … + x[count − 1] in four running sums: a single sum waits on each addition
    /// before the next (some 11,000 states a frame, twice), four keep the adder busy.
    @inline(__always)
    static func sum(_ x: UnsafePointer<Double>, count: Int) -> Double {
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
        var j = 0
        while j + 4 <= count {
            s0 += x[j]; s1 += x[j + 1]; s2 += x[j + 2]; s3 += x[j + 3]
            j += 4
        }
        while j < count { s0 += x[j]; j += 1 }
        return (s0 + s1) + (s2 + s3)
    }

    /// Σ x[i]·y[i] in four running sums, as `sum`; x is 0 outside `nonZero`, and those terms are
    /// left out without moving a term to another of the four sums (adding 0 changes none).
    @inline(__always)
    static func dot(_ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>, count: Int, nonZero: Range<Int>) -> Double {
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
        var j = nonZero.lowerBound & ~3
        let end = min(count, (nonZero.upperBound + 3) & ~3)
        while j + 4 <= end {
            s0 += x[j] * y[j]; s1 += x[j + 1] * y[j + 1]; s2 += x[j + 2] * y[j + 2]; s3 += x[j + 3] * y[j + 3]
            j += 4
        }
        while j < min(end, count) { s0 += x[j] * y[j]; j += 1 }
        return (s0 + s1) + (s2 + s3)
    }
}
