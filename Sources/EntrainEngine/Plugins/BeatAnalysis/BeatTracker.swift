import EntrainDSP

/// Beats to publish: the dynamic-programming tracker's predictions, with a confidence from the
/// onsets that confirm them, and the rule for when beats go out at all.
///
/// Confidence is the share of recent beats an accented onset confirmed (a hit raises it more
/// than a miss lowers it: syncopated music leaves beats without an accent). The tracker locks
/// when confidence reaches the minimum and then publishes every predicted beat, confidence
/// attached, until confidence has decayed to nearly nothing (about 28 unconfirmed beats: a
/// drum break keeps its beat), the onsets have stopped for 16 beats, or the input falls silent.
struct BeatTracker {
    struct Beat {
        var frame: Int64
        var confidence: Float
        /// Frames to the next predicted beat.
        var period: Int
    }

    let sampleRate: Double
    private(set) var cumulative: CumulativeBeatTracker
    /// Analysis frames are stamped this many samples before their end: where the attacks that
    /// raised them began, on average (the onset function lags the attack by about a hop).
    private let stampOffset: Int64
    /// Recent onsets (frame, strength) in a ring.
    private let onsetFrames: UnsafeMutablePointer<Int64>
    private let onsetStrengths: UnsafeMutablePointer<Float>
    private let onsetCapacity = 128
    private var onsetCount = 0
    private var strongest: Float = 0

    /// Predicted beats not yet emitted (engine frames), oldest first.
    private var pending = InlineArray<4, Int64>(repeating: 0)
    private var pendingCount = 0
    /// The last emitted beat, waiting for its verdict.
    private var last: Int64 = .min / 2
    private var lastPeriod = 0.0
    private var hasLast = false

    private(set) var confidence: Float = 0
    private(set) var locked = false
    var minimumConfidence: Float = 0.6
    let publishAll = Tune.value("ALL", 0) != 0
    /// Last engine frame at which the input was above the silence gate.
    private var lastSound: Int64 = .min / 2
    private var latestEnd: Int64 = 0

    // The metrical check: the tempo range, votes for a change of octave, beats since the last change.
    var minimumBPM = 60.0
    var maximumBPM = 200.0
    private var doubleVotes = 0
    private var halveVotes = 0
    private var shiftVotes = 0
    var decision: Int32 = 0
    /// The last change of octave: 1 doubled, -1 halved, 0 none.
    private var lastChange = 0
    let parityRatio = Tune.value("PAR", 0)
    /// Whether an accented onset confirmed each of the last judged beats (bit 0 the newest).
    private var verdicts: UInt32 = 0
    /// The same for the points half-way before each of them (the off-beats).
    private var offVerdicts: UInt32 = 0
    private var verdictCount = 0
    let shiftRatio = Tune.value("SHIFT", 1.3)
    let holdConfidence = Float(Tune.value("HOLD", 0.75))
    let holdRelated = Float(Tune.value("HOLDR", 0.4))
    let establishedBeats = Int(Tune.value("EST", 24))
    private var beatsAtTempo = 0
    /// A change of octave the check decided on, for the tempo estimator (0: none).
    private(set) var settledBPM = 0.0
    let doubleRatio = Tune.value("DBL", 0.6)
    let halveRatio = Tune.value("HLV", 0.3)

    init(sampleRate: Double, hopSize: Int, minimumBPM: Double) {
        self.sampleRate = sampleRate
        cumulative = CumulativeBeatTracker(hopRate: sampleRate / Double(hopSize), hopSize: hopSize, minimumBPM: minimumBPM)
        stampOffset = Int64(hopSize) + Int64(0.0015 * sampleRate)
        onsetFrames = .allocate(capacity: onsetCapacity)
        onsetFrames.initialize(repeating: 0, count: onsetCapacity)
        onsetStrengths = .allocate(capacity: onsetCapacity)
        onsetStrengths.initialize(repeating: 0, count: onsetCapacity)
    }

    func deallocate() {
        cumulative.deallocate()
        onsetFrames.deallocate()
        onsetStrengths.deallocate()
    }

    var bpm: Double { cumulative.bpm }
    /// Beat period in samples.
    private var period: Double { cumulative.period * Double(cumulative.frameSamples) }
    var lastOnsetFrame: Int64 { onsetCount > 0 ? onsetFrames[(onsetCount - 1) % onsetCapacity] : .min / 2 }

    mutating func setTempo(_ bpm: Double) {
        // While accented onsets keep confirming the beats, the estimator may refine the tempo
        // (a ramp) but not replace it: a fill or a syncopated bar can make it jump for a while.
        // A change to a metrically related tempo (2:1, 3:2, 4:3, 3:1 either way) is the usual
        // octave confusion and needs the beats to have lost most of their confirmation.
        let jump = abs(bpm - cumulative.bpm) > 0.04 * bpm
        if jump && locked && beatsAtTempo >= establishedBeats
            && confidence >= (Self.related(bpm, cumulative.bpm) ? holdRelated : holdConfidence) { return }
        if jump { beatsAtTempo = 0 }
        if cumulative.setTempo(bpm) { replacePending(cumulative.nextBeatFrame(end: latestEnd)) }
    }

    static func related(_ a: Double, _ b: Double) -> Bool {
        guard a > 0, b > 0 else { return false }
        let ratio = max(a, b) / min(a, b)
        func near(_ r: Double) -> Bool { abs(ratio - r) <= 0.02 * r }
        return near(2) || near(1.5) || near(4.0 / 3) || near(3)
    }

    /// The newest prediction moved (a new phase): it replaces the pending one.
    private mutating func replacePending(_ predicted: Int64) {
        if pendingCount > 0 { pendingCount -= 1 }
        pending[pendingCount] = max(latestEnd, predicted - stampOffset)
        pendingCount += 1
    }

    /// Take the octave change the metrical check decided on, if any.
    mutating func takeSettledTempo() -> Double? {
        guard settledBPM > 0 else { return nil }
        defer { settledBPM = 0 }
        return settledBPM
    }

    mutating func onset(frame: Int64, strength: Float) {
        onsetFrames[onsetCount % onsetCapacity] = frame
        onsetStrengths[onsetCount % onsetCapacity] = strength
        onsetCount += 1
        strongest = max(strength, strongest * 0.9)
    }

    /// One analysis frame: its onset strength, the engine frame it ends before, and whether the
    /// input was above the silence gate in it.
    mutating func frame(_ value: Double, end: Int64, sounding: Bool) {
        if sounding { lastSound = end }
        latestEnd = end
        guard let predicted = cumulative.push(value, end: end) else { return }
        let frame = max(end, predicted - stampOffset)
        if pendingCount == 4 { return }
        beatsAtTempo += 1
        if !hasLast && pendingCount == 0 && !locked {
            // The first prediction: the onsets already heard vouch for the grid when an accented one
            // confirms each of the last four beats (a steady track is published at once).
            var confirmed = 0
            for k in 1...4 where accentedOnset(near: Double(frame) - Double(k) * period) { confirmed += 1 }
            if confirmed == 4 { confidence = 1 }
        }
        pending[pendingCount] = frame
        pendingCount += 1
        checkMeter()
    }

    /// Which metrical level the accents support, checked once a beat after eight beats at a
    /// tempo: off-beats about as strong as the beats mean the beat is twice as fast; every other
    /// beat much weaker means it is half as fast (and on the stronger ones). Three agreeing
    /// checks make the change. Returns true when it replaced the pending prediction itself.
    private mutating func checkMeter() {
        guard beatsAtTempo >= 8 else { doubleVotes = 0; halveVotes = 0; shiftVotes = 0; return }
        let bpm = cumulative.bpm
        let onBeats = cumulative.gridStrength(shift: 0, first: 0, step: 1, count: 8)
        let offBeats = cumulative.gridStrength(shift: -0.5, first: 0, step: 1, count: 8)
        let even = cumulative.gridStrength(shift: 0, first: 0, step: 2, count: 4)
        let odd = cumulative.gridStrength(shift: 0, first: 1, step: 2, count: 4)
        guard onBeats > 0 else { return }
        // Accented onsets on one parity of beats and not the other, with the onset strength
        // agreeing: the beat is half as fast.
        let evenHits = (verdicts & 0b0101_0101).nonzeroBitCount, oddHits = (verdicts & 0b1010_1010).nonzeroBitCount
        let accentParity = verdictCount >= 8 && max(evenHits, oddHits) >= 3 && min(evenHits, oddHits) <= 1
        let alternating = min(even, odd) < halveRatio * max(even, odd)
            || (accentParity && min(even, odd) < parityRatio * max(even, odd))
        // A change back to the octave the tracker left needs twice the evidence (no flip-flop).
        let needed = 3
        shiftVotes = offBeats > shiftRatio * onBeats ? shiftVotes + 1 : 0
        // Off-beats as strong as the beats and as often accented: the beat is twice as fast.
        let onHits = (verdicts & 0xFF).nonzeroBitCount, offHits = (offVerdicts & 0xFF).nonzeroBitCount
        let accentedOffBeats = verdictCount >= 8 && offHits >= 6 && Double(offHits) >= 0.9 * Double(onHits)
        doubleVotes = offBeats > doubleRatio * onBeats && accentedOffBeats && 2 * bpm <= maximumBPM ? doubleVotes + 1 : 0
        halveVotes = alternating && bpm / 2 >= minimumBPM ? halveVotes + 1 : 0
        if doubleVotes >= (lastChange < 0 ? 2 * needed : needed) {
            decision = 1
            lastChange = 1
            settledBPM = 2 * bpm
        } else if shiftVotes >= needed {
            decision = 3
            replacePending(cumulative.shiftHalfBeat(end: latestEnd))
            resetVotes()
            return
        } else if halveVotes >= (lastChange > 0 ? 2 * needed : needed) {
            decision = 2
            lastChange = -1
            settledBPM = bpm / 2
        } else {
            return
        }
        if cumulative.setTempo(settledBPM) { replacePending(cumulative.nextBeatFrame(end: latestEnd)) }
        resetVotes()
    }

    private mutating func resetVotes() {
        doubleVotes = 0
        halveVotes = 0
        shiftVotes = 0
        beatsAtTempo = 0
        verdicts = 0
        offVerdicts = 0
        verdictCount = 0
    }

    /// The next beat before engine frame `end` that should be published, if any; call until nil.
    mutating func beat(before end: Int64) -> Beat? {
        while pendingCount > 0 && pending[0] < end {
            let frame = pending[0]
            for i in 1..<4 where i < pendingCount { pending[i - 1] = pending[i] }
            pendingCount -= 1
            // The previous beat's verdict is in by now (its onset had a beat's time to arrive).
            if hasLast {
                let hit = accentedOnset(near: Double(last))
                confidence += hit ? 0.3 * (1 - confidence) : -0.1 * confidence
                verdicts = verdicts << 1 | (hit ? 1 : 0)
                offVerdicts = offVerdicts << 1 | (accentedOnset(near: Double(last) - 0.5 * period) ? 1 : 0)
                verdictCount += 1
            }
            last = frame
            hasLast = true
            if confidence >= minimumConfidence { locked = true }
            let beatPeriod = period
            let sounding = Double(frame - lastSound) < max(0.25 * sampleRate, 1.5 * beatPeriod)
            let onsetsGoing = Double(frame - lastOnsetFrame) < 16 * beatPeriod
            if confidence < 0.05 || !sounding || !onsetsGoing { locked = false }
            guard locked || publishAll else { continue }
            return Beat(frame: frame, confidence: confidence, period: Int(FastMath.floor(beatPeriod + 0.5)))
        }
        return nil
    }

    /// Whether an accented onset (≥ 30 % of the strongest recent) lies within ±10 % of a period
    /// of `time` (the recent ones only).
    private func accentedOnset(near time: Double) -> Bool {
        let tolerance = 0.1 * period
        let n = min(onsetCount, onsetCapacity)
        for i in 0..<n {
            let slot = (onsetCount - 1 - i) % onsetCapacity
            let frame = Double(onsetFrames[slot])
            if frame < time - tolerance { return false }
            if abs(frame - time) <= tolerance && onsetStrengths[slot] >= 0.3 * strongest { return true }
        }
        return false
    }
}
