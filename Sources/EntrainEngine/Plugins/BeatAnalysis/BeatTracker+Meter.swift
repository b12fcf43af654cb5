/// The metrical check: is the beat the tracker follows the music's beat, or twice or half of
/// it, or its off-beat? Once a beat, from the onset strength on and between the last beats.
extension BeatTracker {
    static var shiftRatio: Double { 1.3 }
    /// Off-beats at least this strong against the beats (with the accents below) double the beat.
    /// Measured where the check doubled: rightly at 0.70–0.86 (fast-174 heard at 87, punk-180 at
    /// 90), wrongly at 0.65 (dense-100's sixteenths). A narrow margin.
    static var doubleRatio: Double { 0.68 }
    static var halveRatio: Double { 0.3 }
    static var midHalveRatio: Double { 0.4 }
    static var sparseOnsetsPerBeat: Double { 1.25 }

    /// Which metrical level the accents support, checked once a beat after eight beats at a
    /// tempo (four for the mid band): off-beats about as strong as the beats mean the beat is
    /// twice as fast; every other beat much weaker means it is half as fast (and on the stronger
    /// ones). So does a sparse groove (at most 1.25 onsets a beat) whose every other beat is
    /// nearly empty from 150 Hz to 2 kHz: only hats and the odd kick play there, they subdivide
    /// a slower beat (a 70 BPM ballad heard at 140). A busy backbeat groove also leaves beats 1
    /// and 3 empty in that band, but it has two onsets a beat or more, and keeps its tempo.
    /// Three agreeing checks make the change (six to go back to the octave the last change left).
    mutating func checkMeter() {
        guard beatsAtTempo >= 4 else { doubleVotes = 0; halveVotes = 0; shiftVotes = 0; return }
        // The mid band's alternation is clear enough from four beats; the rest waits for eight.
        let settled = beatsAtTempo >= 8, pairs = settled ? 4 : 2
        let bpm = cumulative.bpm
        let onBeats = cumulative.gridStrength(shift: 0, first: 0, step: 1, count: 8)
        let offBeats = cumulative.gridStrength(shift: -0.5, first: 0, step: 1, count: 8)
        let even = cumulative.gridStrength(shift: 0, first: 0, step: 2, count: 4)
        let odd = cumulative.gridStrength(shift: 0, first: 1, step: 2, count: 4)
        let midEven = cumulative.gridStrength(shift: 0, first: 0, step: 2, count: pairs, mid: true)
        let midOdd = cumulative.gridStrength(shift: 0, first: 1, step: 2, count: pairs, mid: true)
        guard onBeats > 0 else { return }
        // Every other beat much weaker in the onset strength, or a sparse groove's every other
        // beat nearly empty in the mid band: the beat is half as fast.
        let strongerFirst = even >= odd
        let loudAlternating = settled && min(even, odd) < Self.halveRatio * max(even, odd)
        let beats = 2 * pairs
        let midAlternating = min(midEven, midOdd) < Self.midHalveRatio * max(midEven, midOdd)
            && Double(onsets(inLast: beats)) <= Self.sparseOnsetsPerBeat * Double(beats)
        let alternating = loudAlternating || midAlternating
        // A change back to the octave the tracker left needs twice the evidence (no flip-flop).
        let needed = 3
        shiftVotes = settled && offBeats > Self.shiftRatio * onBeats ? shiftVotes + 1 : 0
        // Off-beats as strong as the beats and as often accented, the beats still confirmed: the
        // beat is twice as fast. (Off-beats hit while the beats go unconfirmed are a phase
        // sliding off a drifting tempo, not double time.)
        let onHits = beatHits, offHits = offBeatHits
        let accentedOffBeats = verdictCount >= 8 && offHits >= 6 && onHits >= 6 && Double(offHits) >= 0.9 * Double(onHits)
        doubleVotes = settled && offBeats > Self.doubleRatio * onBeats && accentedOffBeats && !barsRepeatAtBeat && 2 * bpm <= maximumBPM
            ? doubleVotes + 1 : 0
        halveVotes = alternating && bpm / 2 >= minimumBPM ? halveVotes + 1 : 0
        if doubleVotes >= (lastChange < 0 ? 2 * needed : needed) {
            lastChange = 1
            settledBPM = 2 * bpm
        } else if shiftVotes >= needed {
            replacePending(cumulative.shiftHalfBeat(end: latestEnd))
            resetVotes()
            return
        } else if halveVotes >= (lastChange > 0 ? 2 * needed : needed) {
            lastChange = -1
            settledBPM = bpm / 2
            // The beats kept are the stronger ones, in the band that showed the alternation.
            let keepLast = loudAlternating ? strongerFirst : midEven >= midOdd
            replacePending(cumulative.halve(keepingLast: keepLast, end: latestEnd))
            resetVotes()
            return
        } else {
            return
        }
        if cumulative.setTempo(settledBPM) { replacePending(cumulative.nextBeatFrame(end: latestEnd)) }
        resetVotes()
    }

    /// Every other one of the last four beats much weaker in the onset strength: the estimator's
    /// half tempo is taken at once (the check would take eight beats and three votes).
    var alternates: Bool {
        let even = cumulative.gridStrength(shift: 0, first: 0, step: 2, count: 2)
        let odd = cumulative.gridStrength(shift: 0, first: 1, step: 2, count: 2)
        return max(even, odd) > 0 && min(even, odd) < Self.halveRatio * max(even, odd)
    }

    mutating func resetVotes() {
        doubleVotes = 0
        halveVotes = 0
        shiftVotes = 0
        beatsAtTempo = 0
        verdicts = 0
        offVerdicts = 0
        verdictCount = 0
    }
}
