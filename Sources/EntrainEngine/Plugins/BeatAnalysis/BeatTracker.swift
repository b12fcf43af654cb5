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
    var cumulative: CumulativeBeatTracker
    /// Analysis frames are stamped this many samples before their end: where the attacks that
    /// raised them began, on average (the onset function lags the attack by about a hop).
    private let stampOffset: Int64
    /// Recent onsets (frame, strength) in a ring.
    private let onsetFrames: UnsafeMutablePointer<Int64>
    private let onsetStrengths: UnsafeMutablePointer<Float>
    private let onsetCapacity = 128
    private var onsetCount = 0
    private var strongest: Float = 0
    private var firstOnset: Int64 = 0

    /// Predicted beats not yet emitted (engine frames), oldest first.
    private var pending = InlineArray<4, Int64>(repeating: 0)
    private var pendingCount = 0
    /// The last emitted beat, waiting for its verdict.
    private var last: Int64 = .min / 2
    private var hasLast = false

    private(set) var confidence: Float = 0
    private(set) var locked = false
    /// Publishing before the lock because the grid stands out of the onset strength (see
    /// `gridStandsOut`), judged at each prediction and at each new phase. Unlike the lock it
    /// holds nothing: the estimator may still change the tempo as freely as before a lock.
    private(set) var early = false
    private var gridVouches = false
    /// Beats go out: locked, or early.
    var publishing: Bool { locked || early }
    /// For how many evaluations in a row the estimator has proposed other tempi against an early grid.
    private var wanderCount = 0
    static var wanderEvaluations: Int { 12 }
    var minimumConfidence: Float = 0.6
    /// Last engine frame at which the input was sounding, and the end of the newest analysis frame.
    private var lastSound: Int64 = .min / 2
    var latestEnd: Int64 = 0

    /// The tempo range (the metrical check stays inside it).
    var minimumBPM = 60.0
    var maximumBPM = 200.0
    /// Votes of the metrical check, and the last change of octave it made (1 doubled, -1 halved).
    var doubleVotes = 0
    var halveVotes = 0
    var shiftVotes = 0
    var lastChange = 0
    /// Whether an accented onset confirmed each of the last judged beats (bit 0 the newest), and
    /// the same for the points half-way before them (the off-beats).
    var verdicts: UInt32 = 0
    var offVerdicts: UInt32 = 0
    var verdictCount = 0
    /// Beats predicted since the tempo last changed.
    var beatsAtTempo = 0
    /// The tempo hint: a slower related tempo much nearer it (by three quarters of an octave)
    /// replaces a held beat (at the default 100 BPM only beats above about 183 BPM are so halved).
    var preferredBPM = 100.0
    static var hintMargin: Double { 0.75 }
    /// The bar-level evidence supports the beat's own level (its bars repeat better than its
    /// half bars): the metrical check does not double it.
    var barsRepeatAtBeat = false
    /// A change of octave the check decided on, for the tempo estimator (0: none).
    var settledBPM = 0.0

    /// Confidence above which a locked beat keeps its tempo against the estimator: against a
    /// metrically related tempo 0.9, or 0.4 once established (24 beats at it); against any other
    /// 0.75 once established.
    static var holdConfidence: Float { 0.75 }
    static var holdRelated: Float { 0.4 }
    static var holdFresh: Float { 0.9 }
    static var establishedBeats: Int { 24 }
    /// How far the grid must stand out of the onset strength to publish it before the accents
    /// have confirmed it (see `gridStandsOut`).
    static var lockContrast: Double { 3.0 }
    static var stayContrast: Double { 2.0 }

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

    /// `barLevel`: the bar-level evidence supports the estimate's metrical level
    /// (`TempoEstimator.barsVouch`); a held beat does not overrule it.
    mutating func setTempo(_ bpm: Double, barLevel: Bool = false) {
        // While accented onsets keep confirming the beats, the estimator may refine the tempo
        // (a ramp) but not replace it: a fill or a syncopated bar can make it jump for a while.
        // A change to a metrically related tempo (2:1, 3:2, 4:3, 3:1 either way) is the usual
        // octave confusion and needs the beats to have lost most of their confirmation.
        let jump = abs(bpm - cumulative.bpm) > 0.04 * bpm
        let halving = bpm < cumulative.bpm && Self.octave(bpm, cumulative.bpm)
        if jump && locked && !barLevel && !(halving && (nearerHint(bpm) || alternates)) {
            let established = beatsAtTempo >= Self.establishedBeats
            // A slower related tempo is the estimator hearing only the kicks and snares: halving
            // is the metrical check's call (alternating accents), not the estimator's.
            let hold = established || bpm < cumulative.bpm ? Self.holdRelated : Self.holdFresh
            // Doubling a held beat needs its off-beats accented about as often as its beats
            // (eighth-note hats between them are not: a drifting tempo smears the beat's lag
            // and makes the estimator hear them).
            if bpm > 1.9 * cumulative.bpm && !offBeatsAccented { return }
            if Self.related(bpm, cumulative.bpm) ? confidence >= hold
                : established && confidence >= Self.holdConfidence { return }
        }
        // Before the lock, a grid that stands out of the onsets keeps its tempo for about a second
        // against any other but its double or half: in its first seconds the estimator wanders
        // to 2:3, 2:5 or 1:3 of the tempo for a few tenths of a second, and each change would
        // choose the phase afresh. (An octave is not wandering: the bar-level evidence halves a
        // tempo early and rightly.) After about a second of other tempi, the estimator's is taken.
        if jump && !locked && gridVouches && !Self.octave(bpm, cumulative.bpm) {
            wanderCount += 1
            if wanderCount < Self.wanderEvaluations { return }
        }
        wanderCount = 0
        if jump { beatsAtTempo = 0 }
        let previous = cumulative.bpm
        if cumulative.setTempo(bpm) {
            // A new phase: the early grid must stand out again before its beats go out, unless
            // the tempo only changed its octave (the beats go on, the new grid judged as it comes).
            if !Self.octave(bpm, previous) { gridVouches = false }
            replacePending(cumulative.nextBeatFrame(end: latestEnd))
            // The new phase is judged at once, like any prediction: when its grid already stands
            // out, its first beat goes out (a 70 BPM ballad heard at 140 from its third beat on).
            if !locked && gridStandsOut { gridVouches = true }
        }
    }

    /// Whether the last three beats of the current grid collect at least `lockContrast` times the
    /// onset strength of the average phase: the grid is the music's.
    /// Noise scores about 1.1 and held pads about 2.2; grooves 3 to 9 from their second bar.
    /// And it takes two onsets at least: the one loud start of a noise is not a grid.
    var gridStandsOut: Bool { onsetCount >= 2 && contrast >= Self.lockContrast }
    /// An early grid already going out keeps going while it stands out at least this far (its
    /// beats do not blink off and on while the accents catch up with them).
    var gridStillStandsOut: Bool { contrast >= Self.stayContrast }
    /// The grid's contrast over its last three beats, all of them since the first onset.
    var contrast: Double { onsetCount > 0 ? cumulative.phaseContrast(beats: 3, musicStart: firstOnset) : 0 }

    /// Whether accented onsets confirmed the off-beats of the last eight beats about as often
    /// as the beats.
    var offBeatsAccented: Bool {
        verdictCount >= 8 && offBeatHits >= 4 && Double(offBeatHits) >= 0.75 * Double(beatHits)
    }
    /// Of the last eight beats, how many an accented onset confirmed, and how many off-beats.
    var beatHits: Int { (verdicts & 0xFF).nonzeroBitCount }
    var offBeatHits: Int { (offVerdicts & 0xFF).nonzeroBitCount }

    /// Whether `bpm` is nearer the hint than the held tempo by at least `hintMargin` octaves.
    func nearerHint(_ bpm: Double) -> Bool {
        guard preferredBPM > 0, bpm > 0, cumulative.bpm > 0 else { return false }
        return abs(FastMath.log2(cumulative.bpm / preferredBPM)) - abs(FastMath.log2(bpm / preferredBPM)) >= Self.hintMargin
    }

    /// Whether two tempi are an octave (2:1) apart, within 2 %.
    static func octave(_ a: Double, _ b: Double) -> Bool {
        guard a > 0, b > 0 else { return false }
        return abs(max(a, b) / min(a, b) - 2) <= 0.04
    }

    /// Whether two tempi are 2:1, 3:2, 4:3 or 3:1 apart, within 2 %.
    static func related(_ a: Double, _ b: Double) -> Bool {
        guard a > 0, b > 0 else { return false }
        let ratio = max(a, b) / min(a, b)
        func near(_ r: Double) -> Bool { abs(ratio - r) <= 0.02 * r }
        return near(2) || near(1.5) || near(4.0 / 3) || near(3)
    }

    /// The newest prediction moved (a new phase): it replaces the pending one.
    mutating func replacePending(_ predicted: Int64) {
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
        if onsetCount == 0 { firstOnset = frame }
        onsetFrames[onsetCount % onsetCapacity] = frame
        onsetStrengths[onsetCount % onsetCapacity] = strength
        onsetCount += 1
        strongest = max(strength, strongest * 0.8)
    }

    /// One analysis frame: its onset strength, its mid-band flux, the engine frame it ends before,
    /// and whether the input was above the silence gate in it.
    mutating func frame(_ value: Double, mid: Double = 0, end: Int64, sounding: Bool) {
        if sounding { lastSound = end }
        // A held beat whose last two beats no accent confirmed, with at most one onset in them
        // (a break), keeps its phase. (Beats unconfirmed among many onsets are a phase sliding
        // off a drifting tempo: the onsets must pull it back.)
        cumulative.holdingPhase = locked && verdictCount >= 2 && verdicts & 0b11 == 0 && onsets(inLast: 2) <= 1
        latestEnd = end
        guard let predicted = cumulative.push(value, mid: mid, end: end) else { return }
        let frame = max(end, predicted - stampOffset)
        if pendingCount == 4 { return }
        beatsAtTempo += 1
        if !locked {
            // Before the lock, the onsets already heard vouch for the grid when an accented one
            // confirms every grid point since the music began (at least two of the last four):
            // a steady track is published at once, at the minimum confidence.
            var confirmed = 0, considered = 0
            for k in 1...4 {
                let point = Double(frame) - Double(k) * period
                guard point >= Double(firstOnset) - 0.1 * period else { break }
                considered += 1
                if accentedOnset(near: point) { confirmed += 1 }
            }
            if considered >= 2 && confirmed == considered { confidence = max(minimumConfidence, Float(confirmed) / 4) }
            // Or the grid stands out of the onset strength: the accents of sampled instruments
            // are too uneven to confirm every beat this early, but the beats' phase is right.
            gridVouches = early ? gridStillStandsOut : gridStandsOut
        }
        pending[pendingCount] = frame
        pendingCount += 1
        checkMeter()
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
            // A lock ends the early grid (should the lock be lost, the next prediction judges anew).
            if locked { gridVouches = false }
            early = !locked && gridVouches
            let beatPeriod = period
            // Sounding: heard within a quarter second, or within 1.5 beats while onsets still come
            // (sparse hits with silence between them). When the music stops, its last sound rings
            // out and the beat stops with it: the song's end is not a break.
            let recentOnset = Double(frame - lastOnsetFrame) <= 1.25 * beatPeriod
            let sounding = Double(frame - lastSound) < (recentOnset ? max(0.25 * sampleRate, 1.5 * beatPeriod) : 0.25 * sampleRate)
            let onsetsGoing = Double(frame - lastOnsetFrame) < 16 * beatPeriod
            // (Confidence near nothing ends a lock; an early beat has none yet, its grid vouches.)
            if (locked && confidence < 0.05) || !sounding || !onsetsGoing {
                locked = false
                early = false
            }
            guard publishing else { continue }
            // An early beat goes out at the minimum confidence: the grid vouched for it.
            return Beat(frame: frame, confidence: locked ? confidence : max(confidence, minimumConfidence),
                        period: Int(FastMath.floor(beatPeriod + 0.5)))
        }
        return nil
    }

    /// Onsets heard in the last `beats` beat periods (up to the ring's 128).
    func onsets(inLast beats: Int) -> Int {
        let since = Double(latestEnd) - Double(beats) * period
        var n = 0
        while n < min(onsetCount, onsetCapacity), Double(onsetFrames[(onsetCount - 1 - n) % onsetCapacity]) >= since { n += 1 }
        return n
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
