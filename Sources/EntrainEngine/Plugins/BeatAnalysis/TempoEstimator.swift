import EntrainDSP
import Foundation

/// Tempo from the onset strength: a running autocorrelation (exponentially forgetting, time
/// constant 2 s) scored through a comb of four harmonics for every tempo in the range, in
/// half-BPM steps, weighted by a tempo prior (a log-Gaussian one octave wide around the preferred
/// tempo, or narrower around the octave the beat tracker settled on). Of tempi in a 2:1, 3:1 or
/// 4:1 relation the faster wins when it explains the periodicity nearly as well (82 %: a track at
/// 120 BPM also repeats every 2 beats, not vice versa).
/// Constant work per hop: no spikes on the process thread.
struct TempoEstimator {
    /// Accent samples per second (two hops summed into one).
    let rate: Double
    let maxLag: Int
    private let acf: UnsafeMutablePointer<Double>
    /// The same autocorrelation with a longer memory (8 s), for the bar-level evidence: a bar's
    /// worth of lag needs several bars of products to be steady.
    private let slowAcf: UnsafeMutablePointer<Double>
    private let slowDecay: Double
    private let history: UnsafeMutablePointer<Double>
    private var position = 0
    private var filled = 0
    private let decay: Double
    private var mean = 0.0
    private let meanWeight: Double
    private var pending = 0.0
    private var previousValue = 0.0
    private var pendingCount = 0
    private var untilEvaluation = 0

    var minimumBPM = 60.0
    var maximumBPM = 200.0
    /// The tempo prior's centre: a log-Gaussian over tempo, `priorOctaves` wide (one standard deviation).
    var preferredBPM = 100.0
    var priorOctaves = 1.0
    /// The metrical level the beat tracker settled on, which replaces the hint as the prior's
    /// centre (with a narrower prior) until the tracker lets go.
    private var level = 0.0
    /// While the tracker holds a beat, a new tempo must persist twice as long (about 2.7 s).
    var patient = false
    let firstWait = 1.0
    let levelOctaves = 0.35
    let octaveMargin = 0.82
    /// Bar-level evidence that halves a tempo, and the level that keeps it halved.
    let barEvidence = 1.2
    let barStay = 1.05
    /// The estimate is half the comb's choice because of the bar-level evidence: the tracker
    /// takes it even against a beat it holds (the metrical evidence is stronger than its accents).
    private(set) var barHalved = false
    /// The bar-level evidence supports the estimate's metrical level: it halved the comb's choice
    /// for it, or the comb chose the slow level itself (a hint near it) and that level's own bars
    /// repeat clearly better than its half bars. A held beat does not overrule it.
    var barsVouch: Bool { barHalved || (bpm > 0 && barRepeat(bpm) >= barEvidence) }

    /// The current estimate (0 = none yet) and how periodic the input is at it (0...1).
    private(set) var bpm = 0.0
    private(set) var salience = 0.0
    private var candidate = 0.0
    private var votes = 0

    init(hopRate: Double) {
        rate = hopRate / 2
        maxLag = Int(4 * rate) + 2  // four beats at 60 BPM
        acf = .allocate(capacity: maxLag + 1)
        acf.initialize(repeating: 0, count: maxLag + 1)
        slowAcf = .allocate(capacity: maxLag + 1)
        slowAcf.initialize(repeating: 0, count: maxLag + 1)
        slowDecay = exp(-1 / (8 * rate))
        history = .allocate(capacity: maxLag + 1)
        history.initialize(repeating: 0, count: maxLag + 1)
        decay = exp(-1 / (2 * rate))
        meanWeight = 1 / rate  // about a one-second mean
    }

    func deallocate() {
        acf.deallocate()
        slowAcf.deallocate()
        history.deallocate()
    }

    /// One hop's detection function value. Returns true when the estimate was re-evaluated.
    mutating func push(_ value: Float) -> Bool {
        pending += Double(value)
        pendingCount += 1
        guard pendingCount == 2 else { return false }
        let x0 = pending
        pending = 0
        pendingCount = 0
        // Smoothed over two samples, so an impulse train whose period falls between two lags
        // (62.5 samples at 180 BPM) still shows one peak rather than two half-height ones.
        let smoothed = 0.5 * (x0 + previousValue)
        previousValue = x0
        mean += (smoothed - mean) * meanWeight
        let x = smoothed - mean
        let size = maxLag + 1
        history[position] = x
        var lag = 0, index = position
        while lag <= min(filled, maxLag) {
            let product = x * history[index]
            acf[lag] = acf[lag] * decay + product
            slowAcf[lag] = slowAcf[lag] * slowDecay + product
            lag += 1
            index = index == 0 ? size - 1 : index - 1
        }
        position = position + 1 == size ? 0 : position + 1
        filled = min(filled + 1, size)
        untilEvaluation -= 1
        guard untilEvaluation <= 0 else { return false }
        untilEvaluation = 16  // about 12 times a second
        evaluate()
        return true
    }

    /// Comb score of a tempo: the mean normalised autocorrelation at 1…4 beat periods, each
    /// summed over the four lags around it. Onsets land on whole hops, so a period that falls
    /// between two lags (62.5 at 180 BPM) spreads its peak over neighbours; the sum collects it
    /// whole, and tempi an octave apart compare fairly.
    private func score(_ bpm: Double) -> Double {
        let period = 60 * rate / bpm
        let limit = Double(min(maxLag, filled - 1) - 2)  // only lags with data
        var sum = 0.0, count = 0.0
        var k = 1.0
        while k <= 4 && k * period < limit {
            let i = Int(k * period)
            if i >= 1 { sum += Self.around(acf, i) }
            count += 1
            k += 1
        }
        return count > 0 && acf[0] > 0 ? sum / (count * acf[0]) : 0
    }

    /// An autocorrelation summed over the four lags around lag `i`.
    @inline(__always)
    private static func around(_ table: UnsafeMutablePointer<Double>, _ i: Int) -> Double {
        table[i - 1] + table[i] + table[i + 1] + table[i + 2]
    }

    /// The slow autocorrelation around `lag` (0 past the data).
    private func slowAround(_ lag: Double) -> Double {
        let i = Int(lag)
        guard i >= 1, i + 2 <= min(maxLag, filled - 1) else { return 0 }
        return Self.around(slowAcf, i)
    }

    /// Bar-level evidence for `bpm`: the slow autocorrelation at four of its beats against two.
    /// A groove whose kick and snare repeat only every four beats (a bar) while its hats repeat
    /// every eighth note scores well above 1 at its true tempo; at half a fast tempo (a bar of
    /// kick 1 & 3, snare 2 & 4 at 180 is two beats at 90) both lags repeat the same and it stays
    /// near 1. Only the halving of a tempo is judged by it, never the doubling.
    func barRepeat(_ bpm: Double) -> Double {
        let period = 60 * rate / bpm
        let half = slowAround(2 * period)
        return half > 0 ? slowAround(4 * period) / half : 0
    }

    private let log2e = 1.442_695_040_888_963_4

    /// The comb score weighted by the tempo prior.
    private func weighted(_ bpm: Double) -> Double {
        let octaves = level > 0 ? FastMath.log2(bpm / level) / levelOctaves : FastMath.log2(bpm / preferredBPM) / priorOctaves
        return score(bpm) * FastMath.exp2(-0.5 * log2e * octaves * octaves)
    }

    /// The beat tracker found the beat at `bpm` (the octave its accents support): take it now
    /// and centre the prior there.
    mutating func settle(on bpm: Double) {
        level = bpm
        self.bpm = bpm
        votes = 0
    }

    /// The tracker lost the beat: back to the hint.
    mutating func forgetLevel() { level = 0 }

    private mutating func evaluate() {
        guard filled > Int(firstWait * rate), acf[0] > 0 else { return }
        var best = minimumBPM, bestScore = -Double.infinity
        var b = minimumBPM
        while b <= maximumBPM {
            let s = weighted(b)
            if s > bestScore { bestScore = s; best = b }
            b += 0.5
        }
        if octaveMargin < 1 {
            let strongest = bestScore
            var multiple = 4.0
            while multiple >= 2 {
                let faster = best * multiple
                if faster <= maximumBPM, weighted(faster) >= octaveMargin * strongest {
                    best = faster
                    break
                }
                multiple -= 1
            }
        }
        // The bar decides between a tempo and its half: the slower one when its bars repeat
        // clearly better than its half bars (a lower bar to stay there: no flip-flop).
        let slower = best / 2
        let halvedAlready = barHalved && abs(slower - bpm) <= 0.04 * bpm
        barHalved = slower >= minimumBPM && barRepeat(slower) >= (halvedAlready ? barStay : barEvidence)
        if barHalved { best = slower }
        salience = max(0, min(1, score(best)))
        if bpm == 0 || abs(best - bpm) <= 0.04 * bpm {
            bpm = best
            votes = 0
            return
        }
        // A different tempo must persist for a few evaluations before it replaces the current one.
        if abs(best - candidate) <= 0.04 * candidate { votes += 1 } else { candidate = best; votes = 1 }
        if votes >= (patient ? 8 : 4) {
            bpm = candidate
            votes = 0
        }
    }
}
