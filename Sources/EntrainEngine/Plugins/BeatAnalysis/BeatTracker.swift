import EntrainDSP

/// Beat phase: a predicted beat clock that onsets pull into line.
///
/// The period comes from the tempo estimator; the phase from the onsets themselves (placed on
/// their exact frames), so predictions land on the attacks, not on the detection delay. Each
/// onset near a predicted beat nudges the clock (phase and period); at each beat a comb over
/// the last seconds of onsets checks whether another phase explains them much better (locked
/// on the off-beat, or the music moved) and moves there after two agreeing checks.
/// Beats are predicted: each is emitted when the engine reaches its frame, not when detected.
struct BeatTracker {
    struct Beat {
        var frame: Int64
        var confidence: Float
        /// Frames to the next predicted beat.
        var period: Int
    }

    let sampleRate: Double
    /// Recent onsets (frame, strength) in a ring.
    private let onsetFrames: UnsafeMutablePointer<Int64>
    private let onsetStrengths: UnsafeMutablePointer<Float>
    private let onsetCapacity = 64
    private var onsetCount = 0

    /// Frames per beat; 0 until a tempo is known.
    private(set) var period = 0.0
    /// Frame of the next predicted beat.
    private(set) var next = 0.0
    /// The last predicted beat (already emitted) and whether an onset has landed on it.
    private var last = -1e18
    private var lastMatched = false
    private var nextMatched = false
    /// Share of recent predicted beats that an onset confirmed (0...1).
    private(set) var confidence: Float = 0
    private var rephaseVotes = 0
    private var strongest: Float = 0

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        onsetFrames = .allocate(capacity: onsetCapacity)
        onsetFrames.initialize(repeating: 0, count: onsetCapacity)
        onsetStrengths = .allocate(capacity: onsetCapacity)
        onsetStrengths.initialize(repeating: 0, count: onsetCapacity)
    }

    func deallocate() {
        onsetFrames.deallocate()
        onsetStrengths.deallocate()
    }

    var bpm: Double { period > 0 ? 60 * sampleRate / period : 0 }
    var lastOnsetFrame: Int64 { onsetCount > 0 ? onsetFrames[(onsetCount - 1) % onsetCapacity] : .min / 2 }

    /// A new tempo from the estimator. Small differences are left to the onsets to refine.
    mutating func setTempo(_ bpm: Double, now: Int64) {
        guard bpm > 0 else { return }
        let estimate = 60 * sampleRate / bpm
        if period == 0 {
            period = estimate
            next = Double(now)
            rephase(now: now, force: true)
        } else if abs(estimate - period) > 0.03 * period {
            period = estimate
            rephaseVotes = 0
        }
    }

    mutating func onset(frame: Int64, strength: Float) {
        onsetFrames[onsetCount % onsetCapacity] = frame
        onsetStrengths[onsetCount % onsetCapacity] = strength
        onsetCount += 1
        strongest = max(strength, strongest * 0.9)
        guard period > 0 else { return }
        let t = Double(frame)
        let toLast = t - last, toNext = t - next
        let error = abs(toLast) < abs(toNext) ? toLast : toNext
        guard abs(error) <= 0.1 * period else { return }
        if abs(toLast) < abs(toNext) { lastMatched = true } else { nextMatched = true }
        // Strong onsets pull harder; weak ones (hats between beats) barely.
        let weight = Double(min(1, strength / max(strongest, 1e-6)))
        next += 0.35 * weight * error
        period += 0.05 * weight * error
    }

    /// The next predicted beat before `end` (engine frame), if any; call until nil.
    mutating func beat(before end: Int64) -> Beat? {
        guard period > 0, next < Double(end) else { return nil }
        // The previous beat's verdict is in by now (its onset had a beat's time to arrive).
        if last > -1e17 { confidence += 0.3 * ((lastMatched ? 1 : 0) - confidence) }
        last = next
        lastMatched = nextMatched
        nextMatched = false
        let beat = Beat(frame: Int64(FastMath.floor(next + 0.5)), confidence: confidence,
                        period: Int(FastMath.floor(period + 0.5)))
        next += period
        rephase(now: beat.frame, force: false)
        return beat
    }

    /// Comb alignment of the onsets of the last few seconds: which phase collects the most
    /// onset strength within ±8 % of a period? Moves the clock when another phase wins clearly.
    private mutating func rephase(now: Int64, force: Bool) {
        let span = Int64(max(2 * sampleRate, 4 * period))
        let current = alignment(phase: next, since: now - span)
        var bestPhase = next, bestScore = current
        let n = min(onsetCount, onsetCapacity)
        for i in 0..<n {
            let frame = onsetFrames[(onsetCount - 1 - i) % onsetCapacity]
            if frame < now - span { break }
            let s = alignment(phase: Double(frame), since: now - span)
            if s > bestScore { bestScore = s; bestPhase = Double(frame) }
        }
        let offset = distance(bestPhase, to: next)
        if force {
            guard bestScore > 0 else { next = Double(now) + period; return }
        } else {
            guard abs(offset) > 0.1 * period, bestScore > 1.25 * current else {
                rephaseVotes = 0
                return
            }
            rephaseVotes += 1
            guard rephaseVotes >= 2 else { return }
        }
        rephaseVotes = 0
        // The grid point of the new phase nearest the old prediction, never behind `now`.
        var moved = next + offset
        while moved <= Double(now) + 0.5 * period { moved += period }
        next = moved
    }

    /// Signed distance from `frame` to the nearest point of the grid through `phase`.
    private func distance(_ frame: Double, to phase: Double) -> Double {
        let beats = (frame - phase) / period
        return (beats - FastMath.floor(beats + 0.5)) * period
    }

    private func alignment(phase: Double, since start: Int64) -> Float {
        let tolerance = 0.08 * period
        var score: Float = 0
        let n = min(onsetCount, onsetCapacity)
        for i in 0..<n {
            let slot = (onsetCount - 1 - i) % onsetCapacity
            let frame = onsetFrames[slot]
            if frame < start { break }
            let d = abs(distance(Double(frame), to: phase))
            if d < tolerance { score += onsetStrengths[slot] * Float(1 - d / tolerance) }
        }
        return score
    }
}
