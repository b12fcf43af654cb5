import EntrainDSP
import Foundation

/// Onset detection, one hop at a time, from the spectra and sub-block energies `BeatSpectrum`
/// produced. Two detection functions: spectral flux against an adaptive median threshold, and
/// RMS energy against its one-second average (MindSync). An onset fires on the hop where the
/// function first crosses its threshold (no waiting for the peak: lower latency), then is placed
/// on the sub-block where the input's energy rises most steeply: the frame the attack began.
struct OnsetDetector {
    struct Onset {
        var frame: Int64
        /// The loudness jump at the attack against the loudest recent one, 0...1.
        var strength: Float
    }

    let sampleRate: Double
    let hopSize: Int
    let windowSize: Int
    let bins: Int
    let subBlockSize: Int
    /// Bins below 150 Hz, which the low-band emphasis weights; bins below 2 kHz.
    let lowBins: Int
    let midBins: Int

    // Settings (from the parameter table).
    var method = BeatParameters.Method.flux
    var fluxThreshold: Float = 3
    var lowGain: Float = 1
    var fluxMinIntervalFrames: Int64 = 1440
    var energyThreshold: Float = 1.4
    var energyRefractoryFrames: Int64 = 7200
    /// Mean square per sample below which a hop counts as silent.
    var silenceEnergy: Float = 1e-6

    // Flux: the two previous spectra (the flux compares with the frame two hops back).
    private let previous: UnsafeMutablePointer<Float>
    private var previousSlot = 0
    private var fluxMedian: RunningMedian
    // Energy: mean squares of the last second of hops.
    private let energyHistory: UnsafeMutablePointer<Float>
    private let energyLength: Int
    private var energyPosition = 0
    private var energySum: Float = 0
    private var lastEnergy: Float = 0
    private var recentEnergies = InlineArray<8, Float>(repeating: 0)
    private var recentPosition = 0
    private var recentSum: Float = 0
    private var olderEnergy: Float = 0
    // Sub-block energies of the recent input, for placing onsets.
    private let subRing: UnsafeMutablePointer<Float>
    private let subRingSize: Int
    /// Engine frame just past the newest sub-block.
    private var subEnd: Int64 = 0
    private var subCount = 0

    private var above = false
    private var lastOnset: Int64 = .min / 2
    /// Slowly falling maxima of the detection function (for its threshold floor) and of the
    /// loudness jumps at onsets (scales strengths to 0...1).
    private var peak: Float = 0
    private var accentPeak: Float = 0
    private let peakDecay: Float

    /// The detection function of the last hop, scaled for the tempo tracker (≥ 0).
    private(set) var novelty: Float = 0
    /// The last hop's spectral flux from 150 Hz to 2 kHz (flux method only; else 0): the
    /// metrical check's view without the kick's boom and the hats' subdivisions.
    private(set) var midNovelty: Float = 0
    /// Mean square of the last hop.
    private(set) var hopEnergy: Float = 0

    init(sampleRate: Double, hopSize: Int, windowSize: Int, bins: Int, subBlockSize: Int) {
        self.sampleRate = sampleRate
        self.hopSize = hopSize
        self.windowSize = windowSize
        self.bins = bins
        self.subBlockSize = subBlockSize
        lowBins = min(bins, Int(150 / (sampleRate / Double(windowSize))) + 1)
        midBins = max(lowBins, min(bins, Int(2000 / (sampleRate / Double(windowSize))) + 1))
        previous = .allocate(capacity: 2 * bins)
        previous.initialize(repeating: 0, count: 2 * bins)
        let hopsPerSecond = sampleRate / Double(hopSize)
        fluxMedian = RunningMedian(capacity: max(8, Int(0.25 * hopsPerSecond)))
        energyLength = max(8, Int(hopsPerSecond))
        energyHistory = .allocate(capacity: energyLength)
        energyHistory.initialize(repeating: 0, count: energyLength)
        subRingSize = 4 * windowSize / subBlockSize
        subRing = .allocate(capacity: subRingSize)
        subRing.initialize(repeating: 0, count: subRingSize)
        peakDecay = Float(pow(0.5, 1 / (4 * hopsPerSecond)))  // halves in 4 s
    }

    func deallocate() {
        previous.deallocate()
        fluxMedian.deallocate()
        energyHistory.deallocate()
        subRing.deallocate()
    }

    /// One hop: `magnitudes` (bins) and `subEnergies` (hopSize/subBlockSize) of the hop that
    /// ends just before engine frame `end`. Returns the onset it found, if any.
    mutating func process(magnitudes: UnsafeMutablePointer<Float>, subEnergies: UnsafeMutablePointer<Float>,
                          end: Int64) -> Onset? {
        let subs = hopSize / subBlockSize
        var energy: Float = 0
        for j in 0..<subs {
            subRing[subCount % subRingSize] = subEnergies[j]
            subCount += 1
            energy += subEnergies[j]
        }
        subEnd = end
        hopEnergy = energy / Float(hopSize)

        let value = method == .flux ? flux(magnitudes) : energyFunction()
        peak = max(value, peak * peakDecay)
        let threshold: Float
        let spacing: Int64
        switch method {
        case .flux:
            threshold = max(max(fluxThreshold * fluxMedian.median, 0.02 * peak), 1e-3)
            fluxMedian.push(value)
            spacing = fluxMinIntervalFrames
            novelty = value
        case .energy:
            midNovelty = 0
            let average = energySum / Float(energyLength)
            threshold = energyThreshold * energyThreshold * average
            spacing = energyRefractoryFrames
            novelty = max(0, lastEnergy - olderEnergy) / (average + 1e-9)
        }

        // Fire on the rising crossing only; re-arm once the function has fallen to half the
        // threshold (a drum's noisy decay wobbling around it is not a new onset).
        if value < threshold * 0.5 { above = false }
        guard value > threshold, !above, hopEnergy > silenceEnergy else { return nil }
        above = true
        let back = attackSubBlock(after: lastOnset + spacing / 2)
        let frame = subEnd - Int64(back * subBlockSize)
        guard frame - lastOnset >= spacing else { return nil }
        lastOnset = frame
        let jump = accent(back: back)
        accentPeak = max(jump, accentPeak * peakDecay)
        return Onset(frame: frame, strength: accentPeak > 0 ? min(1, jump / accentPeak) : 0)
    }

    /// Half-wave-rectified increase of log magnitude against the frame two hops back.
    private mutating func flux(_ m: UnsafeMutablePointer<Float>) -> Float {
        let old = previous + previousSlot * bins
        var low: Float = 0, mid: Float = 0, high: Float = 0
        for k in 0..<lowBins {
            low += max(0, m[k] - old[k])
            old[k] = m[k]
        }
        for k in lowBins..<midBins {
            mid += max(0, m[k] - old[k])
            old[k] = m[k]
        }
        for k in midBins..<bins {
            high += max(0, m[k] - old[k])
            old[k] = m[k]
        }
        previousSlot ^= 1
        midNovelty = mid
        return low * lowGain + mid + high
    }

    /// This hop's mean square; keeps the one-second window. Comparing mean squares against k²
    /// times the last second's is comparing the hop's RMS with k times the last second's RMS
    /// (the MindSync method), without a square root.
    private mutating func energyFunction() -> Float {
        // The MindSync method measures 1024-sample buffers (at 48 kHz): the mean square of the
        // last eight hops. A single hop of noise fluctuates too much to compare.
        recentSum += hopEnergy - recentEnergies[recentPosition]
        if recentSum < 0 { recentSum = 0 }
        recentEnergies[recentPosition] = hopEnergy
        recentPosition = (recentPosition + 1) & 7
        let e = recentSum / 8
        energySum += e - energyHistory[energyPosition]
        if energySum < 0 { energySum = 0 }
        energyHistory[energyPosition] = e
        energyPosition = energyPosition + 1 == energyLength ? 0 : energyPosition + 1
        olderEnergy = lastEnergy
        lastEnergy = e
        return e
    }

    /// Where the attack that made this hop cross began: within the last window (but not before
    /// `earliest`), the sub-block whose energy rises most against the two before it. Returned as
    /// the number of sub-blocks back from the newest (1 = the newest).
    private func attackSubBlock(after earliest: Int64) -> Int {
        let available = min(subCount - 2, windowSize / subBlockSize + hopSize / subBlockSize)
        guard available > 0 else { return 1 }
        var loudest: Float = 0
        for back in 1...(available + 2) { loudest = max(loudest, subRing[(subCount - back) % subRingSize]) }
        let floor = loudest * 1e-4 + 1e-12
        var best = 1, bestRatio: Float = 0
        for back in 1...available {
            if subEnd - Int64(back * subBlockSize) < earliest { break }
            let i = subCount - back
            let before = max(subRing[(i - 1) % subRingSize], subRing[(i - 2) % subRingSize])
            let ratio = subRing[i % subRingSize] / (before + floor)
            if ratio > bestRatio {
                bestRatio = ratio
                best = back
            }
        }
        return best
    }

    /// How much louder the input got at the attack `back` sub-blocks ago: mean energy per sample
    /// since then against the 4 sub-blocks before. A kick outweighs a hi-hat here, while in the
    /// log-spectral flux a broadband hat can outweigh a kick; the beat tracker wants the former.
    private func accent(back: Int) -> Float {
        var after: Float = 0
        for b in 1...back { after += subRing[(subCount - b) % subRingSize] }
        var before: Float = 0
        let earlier = min(4, subCount - back)
        if earlier > 0 {
            for b in (back + 1)...(back + earlier) { before += subRing[(subCount - b) % subRingSize] }
            before /= Float(earlier)
        }
        return max(0, after / Float(back) - before) / Float(subBlockSize)
    }
}
