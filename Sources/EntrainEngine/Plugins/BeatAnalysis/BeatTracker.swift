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
    /// Predicted beats in a row without an accented onset.
    private var misses = 0
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

    /// A new tempo from the estimator. While the onsets confirm the clock, they refine the
    /// period themselves (the estimator's window lags behind a tempo ramp, and a fill can make
    /// it flip an octave for a moment); the estimate takes over once the clock has lost them
    /// (low confidence, or two beats in a row unconfirmed and a clearly different tempo).
    mutating func setTempo(_ bpm: Double, now: Int64) {
        guard bpm > 0 else { return }
        let estimate = 60 * sampleRate / bpm
        let difference = abs(estimate - period)
        if period == 0 {
            period = estimate
            next = Double(now)
            rephase(now: now, force: true)
        } else if (difference > 0.03 * period && confidence < 0.6) || (difference > 0.1 * period && misses >= 2) {
            period = estimate
            rephaseVotes = 0
            rephase(now: now, force: true)
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
        // Strong onsets pull harder; weak ones (hats between beats) barely. Only an accented
        // onset confirms a beat: in dense material some weak one lands near any grid.
        let weight = Double(min(1, strength / max(strongest, 1e-6)))
        if weight >= 0.3 {
            if abs(toLast) < abs(toNext) { lastMatched = true } else { nextMatched = true }
        }
        next += 0.35 * weight * error
        period += 0.15 * weight * error
    }

    /// The next predicted beat before `end` (engine frame), if any; call until nil.
    mutating func beat(before end: Int64) -> Beat? {
        guard period > 0, next < Double(end) else { return nil }
        // The previous beat's verdict is in by now (its onset had a beat's time to arrive).
        // A hit raises it faster than a miss lowers it: syncopated music leaves some beats
        // without an accent (a hip-hop bar may have three of four), chance hits stay rare.
        if last > -1e17 {
            confidence += lastMatched ? 0.3 * (1 - confidence) : -0.15 * confidence
            misses = lastMatched ? 0 : misses + 1
        }
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
            // The onsets already heard vouch for the new clock: when an accented onset confirms
            // each of the last four grid points, a steady track is published at once.
            var confirmed: Float = 0
            var beat = 1.0
            while beat <= 4 {
                let gridPoint = bestPhase + FastMath.floor((Double(now) - bestPhase) / period) * period - (beat - 1) * period
                if accentedOnset(near: gridPoint) { confirmed += 1 }
                beat += 1
            }
            // The tempo and phase were fitted to these same onsets, so partial agreement is
            // weak evidence: only a full four counts as a lock.
            confidence = confirmed == 4 ? 1 : confirmed / 8
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

    /// Whether an accented onset (≥ 30 % of the strongest recent) lies within ±8 % of a period
    /// of `time` (the recent ones only).
    private func accentedOnset(near time: Double) -> Bool {
        let tolerance = 0.08 * period
        let n = min(onsetCount, onsetCapacity)
        for i in 0..<n {
            let slot = (onsetCount - 1 - i) % onsetCapacity
            let frame = Double(onsetFrames[slot])
            if frame < time - tolerance { return false }
            if abs(frame - time) <= tolerance && onsetStrengths[slot] >= 0.3 * strongest { return true }
        }
        return false
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
