import EntrainDSP
import Foundation

/// Beats from the tempo-and-phase filter (`BeatStateSpace`): each predicted on its frame from
/// the filter's most likely tempo and position, published once the grid stands out of the
/// activation, kept through breaks, stopped when the music stops.
///
/// Confidence is the grid's contrast: the activation's peaks on the grid's last four beats (at
/// its current tempo and phase) against its mean over them (noise about 1.5, sustained pads up
/// to about 2.4, drums 5 to 25), mapped to 1 − 1.5 / contrast. Beats go out once it reaches
/// `/beat/confidence/min` (0.6: a contrast of 3.75) and at least two of those four beats were
/// heard, while the input sounds, and keep going through a break until the input stops sounding for
/// 1.5 beats (falls silent for 0.75 after a beat without an attack) or no onset came for 16 beats.
struct BeatFilterTracker {
    struct Beat {
        var frame: Int64
        var confidence: Float
        /// Frames to the next predicted beat.
        var period: Int
    }

    let sampleRate: Double
    /// Engine frames per analysis frame, and how far before its end a frame is stamped: where
    /// the attacks that raised it began, on average.
    let frameSamples: Int64
    private let stampOffset: Int64
    var space: BeatStateSpace
    /// The activation's slowly falling peak (half-life 4 s), which scales it into (0, 1).
    private var peak = 0.0
    private let peakDecay: Double
    static var floor: Double { 0.02 }

    /// Recent raw activation, by analysis frame, as a ring.
    private let recent: UnsafeMutablePointer<Double>
    private let recentCapacity = 4096
    private var frameIndex = 0
    /// The peaks of the beats judged last.
    private var peaks = InlineArray<4, Double>(repeating: 0)
    /// The analysis frame of the last beat the filter passed, still to be judged (its peak is
    /// read two frames after it), or -1.
    private var toJudge = -1

    /// Beats decided (due within two frames, or passed) that the engine has not reached yet, as
    /// a ring: a prediction further ahead may still change with the next frame; one due before
    /// it may not. The last one decided, and the phase the filter was at in the previous frame
    /// (half a beat less means its beat went by).
    private var due = InlineArray<4, Int64>(repeating: 0)
    private var dueHead = 0
    private var dueCount = 0
    private var lastDecided: Int64 = .min / 2
    private var lastPhase = 0.0

    /// The grid's contrast mapped into 0…1: what beats start going out on.
    private(set) var gridConfidence: Float = 0
    /// Published with each beat: the grid's contrast times the share of its last four beats an
    /// onset came near (a break's held chords stand out of its quiet as well as drums do, but
    /// leave most beats unsounded: there the beats go on, their confidence down).
    private(set) var confidence: Float = 0
    private(set) var publishing = false
    var minimumConfidence: Float = 0.6
    private var lastSound: Int64 = .min / 2
    private var lastOnset: Int64 = .min / 2
    private(set) var latestEnd: Int64 = 0
    /// The last frame above the silence gate (`sounding` also asks for the usual level).
    private var lastAudible: Int64 = .min / 2

    var minimumBPM = 60.0 { didSet { updateTempi() } }
    var maximumBPM = 200.0 { didSet { updateTempi() } }
    var preferredBPM = 100.0 { didSet { updateTempi() } }
    /// How much a tempo an octave from the hint loses at each beat (see `BeatStateSpace.setTempi`).
    static var hintStrength: Double { 1 }

    init(sampleRate: Double, hopSize: Int) {
        self.sampleRate = sampleRate
        frameSamples = Int64(2 * hopSize)
        stampOffset = Int64(hopSize) + Int64(0.0015 * sampleRate)
        space = BeatStateSpace(frameRate: sampleRate / Double(2 * hopSize))
        peakDecay = pow(0.5, 1 / (4 * sampleRate / Double(2 * hopSize)))
        recent = .allocate(capacity: recentCapacity)
        recent.initialize(repeating: 0, count: recentCapacity)
        updateTempi()
        space.reset()
    }

    func deallocate() {
        space.deallocate()
        recent.deallocate()
    }

    private mutating func updateTempi() {
        space.setTempi(minimum: minimumBPM, maximum: maximumBPM, prefer: preferredBPM, hintStrength: Self.hintStrength)
    }

    /// The grid's beat period in engine frames.
    var period: Int64 { Int64(space.intervals[space.tempo]) * frameSamples }
    /// The published beats' period: the beat line's interval (the grid's before it has one),
    /// twice that while halving. The grid's own is whole analysis frames (32,256 frames for
    /// 90 BPM, whose beats the line puts 32,000 apart), and a JACK timebase counting beats at it
    /// ran ahead of them.
    var publishedPeriod: Int64 {
        let beat = smoothedInterval > 0 ? Int64(smoothedInterval + 0.5) : period
        return halving ? 2 * beat : beat
    }
    var locked: Bool { publishing }
    /// The interval between the beat line's beats (below), smoothed (a quarter of each new one;
    /// engine frames, 0: none yet) and nudged by their onsets: the line's interval and the tempo
    /// reported. The grid's intervals are whole analysis frames (120 BPM is 93.75; the grid has
    /// 93 and 95), and the filter's most likely one alone read 118.4 for 120; the smoothed gaps
    /// of the grid's beats (before the line) still left its beats 1.7 ms early on rock-120.
    private var smoothedInterval = 0.0
    var bpm: Double { (smoothedInterval > 0 ? 60 * sampleRate / smoothedInterval : space.bpm(ofTempo: space.tempo)) / (halving ? 2 : 1) }

    /// The beat line: where the beats decided fall, in engine frames. The grid is whole analysis
    /// frames (5.3 ms) and so are its intervals, so its beats wander a frame or two from beat to
    /// beat around the music's: 7.8 and 13.1 ms late in turn on the synthesized rock-090, a
    /// sawtooth from −9.5 to +13.2 ms on rock-120 (and a JACK timebase aligned to them fell up
    /// to 12.8 ms off the drums). The line puts each beat one interval after the last;
    /// the grid's beat pulls that a tenth of the way (`gridGain`: through a break the grid
    /// drifts a frame and jumps back, and the line holds the mean), an onset within 25 ms of the
    /// beat half the way and the interval a fifth of its error (`onsetGain`, `intervalGain`:
    /// once a beat, whether the attack came just before the beat was decided or after). A
    /// grid's beat further from the line than a tenth of the interval (a new phase or tempo)
    /// starts the line again on it.
    private var lineBeat = 0.0
    private var previousLineBeat = 0.0
    private var lineRuns = false
    private var lineHeard = true
    static var gridGain: Double { 0.1 }
    static var onsetGain: Double { 0.5 }
    static var intervalGain: Double { 0.2 }
    static var lineTolerance: Double { 0.1 }
    /// The last grid beat decided (engine frames), before the line moved it.
    private var lastGridBeat: Int64 = .min / 2

    mutating func onset(frame: Int64) {
        lastOnset = frame
        onsetFrames[onsetCount % Self.onsetCapacity] = frame
        onsetCount += 1
        heardOnLine(frame)
    }

    /// An onset within 25 ms of the line's last beat, the first for that beat, pulls the line.
    private mutating func heardOnLine(_ frame: Int64) {
        let offset = Double(frame) - lineBeat
        guard !lineHeard, abs(offset) <= 0.025 * sampleRate else { return }
        lineHeard = true
        lineBeat += Self.onsetGain * offset
        if smoothedInterval > 0 { smoothedInterval += Self.intervalGain * offset }
    }

    /// The last onsets' engine frames, as a ring.
    private var onsetFrames = InlineArray<64, Int64>(repeating: .min / 2)
    private var onsetCount = 0
    static var onsetCapacity: Int { 64 }

    /// Whether an onset came within 50 ms of engine frame `frame`.
    private func onsetNear(_ frame: Int64) -> Bool {
        let window = Int64(0.05 * sampleRate)
        for i in 0..<Self.onsetCapacity {
            let d = onsetFrames[i] - frame
            if d > -window && d < window { return true }
        }
        return false
    }

    /// One analysis frame: its raw activation (≥ 0), the engine frame just past it, and whether
    /// the input sounded in it.
    mutating func frame(_ value: Double, end: Int64, sounding: Bool, audible: Bool = true) {
        latestEnd = end
        if sounding { lastSound = end }
        if audible { lastAudible = end }
        peak = max(value, peak * peakDecay)
        // Squared: a hat or a shaker at half the peak counts a quarter, so the off-beats of a
        // slow groove do not pull it to double tempo as they did scaled linearly.
        let share = peak > 0 ? min(1, value / peak) : 0
        let a = Self.floor + (1 - 2 * Self.floor) * share * share
        space.step(a)
        recent[frameIndex % recentCapacity] = value
        judge()
        let interval = space.intervals[space.tempo], position = space.position
        let phase = Double(position) / Double(interval)
        let wrapped = phase < lastPhase - 0.5
        // A beat went by: judge it once its peak has been heard.
        if wrapped && toJudge < 0 { toJudge = frameIndex - position }
        // Decided two frames ahead: a tempo's argmax position may step over its last frame. Or
        // two frames before the beat line's next beat when the grid's is near it but later (the
        // line may put the beat earlier than the grid, and it must be decided before its frame).
        let next = end + Int64(interval - position) * frameSamples - stampOffset
        let lineNext = lineBeat + (smoothedInterval > 0 ? smoothedInterval : Double(period))
        let lineDue = lineNext - Double(end) <= Double(2 * frameSamples)
            && abs(Double(next) - lineNext) < Self.lineTolerance * Double(period)
        if interval - position <= 2 || lineDue {
            decide(next)
        } else if wrapped {
            // The filter moved past a beat without predicting it on a frame (it changed its
            // mind about the phase): that beat is due now.
            decide(end - Int64(position) * frameSamples - stampOffset)
        }
        lastPhase = phase
        frameIndex += 1
    }

    /// Engine frames of input lost (a period JACK did not give us: an xrun), not yet stepped
    /// over as whole analysis frames.
    private var lostCarry: Int64 = 0

    /// `frames` of input never reached the analysis (the host lost a period): the music went on
    /// without us, so the filter moves forward by as many analysis frames with no observation
    /// (its tempo and phase carry on), beats it had decided move that much earlier on the engine's
    /// frames (those now in the past fell in the lost stretch and are dropped), and so does what
    /// was heard before. A stall instead would leave every later beat late by the frames lost.
    mutating func skip(frames: Int64) {
        guard frames > 0 else { return }
        lostCarry += frames
        let steps = lostCarry / frameSamples
        lostCarry -= steps * frameSamples
        for _ in 0..<Int(min(steps, 4096)) {
            space.step(BeatStateSpace.neutral)
            recent[frameIndex % recentCapacity] = 0
            frameIndex += 1
        }
        let shift = steps * frameSamples
        guard shift > 0 else { return }
        toJudge = -1
        lastPhase = Double(space.position) / Double(space.intervals[space.tempo])
        var kept = InlineArray<4, Int64>(repeating: 0)
        var keptCount = 0
        for i in 0..<dueCount {
            let frame = due[(dueHead + i) % 4] - shift
            if frame >= latestEnd {
                kept[keptCount] = frame
                keptCount += 1
            }
        }
        for i in 0..<keptCount { due[i] = kept[i] }
        dueHead = 0
        dueCount = keptCount
        lastDecided -= shift
        lastGridBeat -= shift
        lineBeat -= Double(shift)
        previousLineBeat -= Double(shift)
        lastSound -= shift
        lastAudible -= shift
        lastOnset -= shift
        for i in 0..<Self.onsetCapacity { onsetFrames[i] -= shift }
    }

    /// Judges the grid the filter holds now, two frames after one of its beats went by (its
    /// peak heard): the activation's peaks on that beat and the three before it, at the current
    /// tempo, against the activation's mean over those four beats. Read on the grid as it stands,
    /// not on the beats the filter passed while it was still settling (those wandered, and four
    /// good beats had to go by before the contrast showed: songs locked in 2–3.4 s). The music
    /// counts as heard on the grid when at least two of those four beats peak above that mean:
    /// silence before the music never does, nor do noise and pads. Each of the last three, as
    /// before, waited a beat more on every song and held back grooves whose kick falls on every
    /// other beat (lmms-cpu-128's intro, a half-time feel) until the rest of the kit came in.
    private mutating func judge() {
        guard toJudge >= 0, frameIndex >= toJudge + 2 else { return }
        let beatFrame = toJudge, interval = space.intervals[space.tempo]
        toJudge = -1
        let oldest = frameIndex - recentCapacity + 1
        var peakSum = 0.0, heardCount = 0
        for k in 0..<Self.judgedBeats {
            let top = peak(around: beatFrame - k * interval)
            peaks[k] = top
            peakSum += top
        }
        var sum = 0.0, count = 0
        let from = max(max(0, oldest), beatFrame + 2 - Self.judgedBeats * interval)
        if from <= frameIndex {
            for i in from...frameIndex {
                sum += recent[i % recentCapacity]
                count += 1
            }
        }
        let mean = count > 0 ? sum / Double(count) : 0
        for k in 0..<Self.judgedBeats where peaks[k] > mean { heardCount += 1 }
        judgeLevel(beatFrame: beatFrame, interval: interval)
        gridHeard = heardCount >= Self.heardBeats && mean > 0
        let contrast = mean > 0 ? peakSum / Double(Self.judgedBeats) / mean : 0
        gridConfidence = contrast > 1.5 ? Float(1 - 1.5 / contrast) : 0
        var sounded = 0
        // The four beats before this one: their onsets are in (this one's may still be coming).
        for k in 1...Self.judgedBeats where onsetNear(lastDecided - Int64(k) * period) { sounded += 1 }
        confidence = gridConfidence * Float(sounded) / Float(Self.judgedBeats)
        // Heard: its peak above the mean, or an onset within 50 ms of it (a click the grid's
        // five frames just missed: without this click-070 lost a beat).
        let near = lastOnset - lastDecided
        lastBeatHeard = peaks[0] > mean || (near > -Int64(0.05 * sampleRate) && near < Int64(0.05 * sampleRate))
    }

    /// The largest raw activation within two frames of analysis frame `centre` still in the ring.
    private func peak(around centre: Int) -> Double {
        var top = 0.0
        let from = max(max(0, frameIndex - recentCapacity + 1), centre - 2), to = min(frameIndex, centre + 2)
        if from <= to { for i in from...to { top = max(top, recent[i % recentCapacity]) } }
        return top
    }

    /// The published level: the grid's beats, or every other one when half the grid's tempo is
    /// nearer the hint by `hintMargin` octaves more (with the hint at 100, a grid above 190 BPM:
    /// dense-100's sixteenths held at 200; with a hint of 60, pop-120 at 60). The filter itself
    /// cannot take that level: a backbeat's snare on every other beat of a half-tempo grid is an
    /// attack off its beats, and its cost outweighs any prior. Of the two parities, the one whose
    /// peaks are stronger over the last eight beats goes out; it changes only when the other is
    /// clearly stronger (under 0.6 of it: beats alike, as pop's kick and snare, must not swap it
    /// back and forth, each swap a beat missing).
    private(set) var halving = false
    /// The next beat of the grid belongs to the weaker parity (not published while halving).
    private var nextIsWeak = false
    static var hintMargin: Double { 0.85 }

    private mutating func judgeLevel(beatFrame: Int, interval: Int) {
        var even = 0.0, odd = 0.0
        for k in 0..<8 {
            let top = peak(around: beatFrame - k * interval)
            if k % 2 == 0 { even += top } else { odd += top }
        }
        let gridBPM = space.bpm(ofTempo: space.tempo)
        let octaves = FastMath.log2(gridBPM / max(preferredBPM, 1))
        let hinted = abs(octaves - 1) + Self.hintMargin < abs(octaves)
        halving = hinted
        // This beat (even) went out as the strong one unless it was skipped; the parity stays
        // as it is unless the other is clearly stronger (with beats alike, as pop's kick and
        // snare, the sums wander either way and the parity must not follow them).
        let thisStrong = !skippedLast
        if thisStrong {
            nextIsWeak = halving && !(even < 0.6 * odd)
        } else {
            nextIsWeak = halving && odd < 0.6 * even
        }
    }
    private var skippedLast = false
    /// Beats go on until the input has not sounded for 1.5 of the grid's beats, or has been
    /// under the silence gate for 0.75 when the last beat went by without an attack: a song's end
    /// (its last chord released, the next beat unheard) is not a click track's silence between
    /// clicks, each heard on its beat, nor a quiet passage. With 1.5 alone every song got two
    /// beats after its last; with 0.75 alone click-128 went out at 0.37; with 0.75 of quiet
    /// (25 dB under the usual level, not the gate) h2-georgy-084 lost 2.9 s of beats.
    private var lastBeatHeard = false


    /// Beats of the grid the contrast is read over, and how many of those must stand above the
    /// mean before beats go out.
    static var judgedBeats: Int { 4 }
    static var heardBeats: Int { 2 }
    private var gridHeard = false

    /// A beat of the grid on `frame`, unless one was decided less than 0.7 beats before it: put on
    /// the beat line (above) and, unless it is the weaker beat of a halved grid, due.
    private mutating func decide(_ frame: Int64) {
        guard frame - lastGridBeat > Int64(0.7 * Double(period)), dueCount < 4 else { return }
        // The gap between the line's last two beats, each where its onset put it (while the line
        // runs; the grid's own gap before).
        let grid = Double(period), gap = lineRuns ? lineBeat - previousLineBeat : Double(frame - lastGridBeat)
        previousLineBeat = lineBeat
        if gap > 0.8 * grid && gap < 1.25 * grid {
            let near = smoothedInterval > 0 && abs(smoothedInterval - grid) < 0.1 * grid
            smoothedInterval = near ? smoothedInterval + 0.25 * (gap - smoothedInterval) : gap
        } else {
            smoothedInterval = 0
        }
        lastGridBeat = frame
        let interval = smoothedInterval > 0 ? smoothedInterval : grid
        let miss = Double(frame) - (lineBeat + interval)
        if lineRuns && abs(miss) < Self.lineTolerance * interval {
            lineBeat += interval + Self.gridGain * miss
        } else {
            lineBeat = Double(frame)
            lineRuns = true
        }
        lineHeard = false
        heardOnLine(lastOnset)  // its attack may have come already (a beat a little early)
        // Rounded by hand: `rounded()` takes a rounding rule, whose type @_noLocks refuses.
        lastDecided = Int64(lineBeat + (lineBeat < 0 ? -0.5 : 0.5))
        // Never earlier than the analysis has reached (a beat is published on its frame, in its
        // period), unless the grid's own beat already went by.
        let stamp = max(lastDecided, min(frame, latestEnd))
        if halving && nextIsWeak {
            nextIsWeak = false
            skippedLast = true
            return
        }
        skippedLast = false
        nextIsWeak = halving
        due[(dueHead + dueCount) % 4] = stamp
        dueCount += 1
    }

    /// The next beat to publish before engine frame `end`, if any.
    mutating func beat(before end: Int64) -> Beat? {
        while dueCount > 0, due[dueHead] < end {
            let frame = due[dueHead]
            dueHead = (dueHead + 1) % 4
            dueCount -= 1
            let beats = Double(period)
            let sounding = Double(latestEnd - lastSound) < 1.5 * beats
                && (lastBeatHeard || Double(latestEnd - lastAudible) < 0.75 * beats)
            let onsetsGoing = Double(latestEnd - lastOnset) < 16 * beats
            if !publishing && sounding && gridConfidence >= minimumConfidence && gridHeard { publishing = true }
            if publishing && (!sounding || !onsetsGoing) { publishing = false }
            if publishing { return Beat(frame: frame, confidence: confidence, period: Int(publishedPeriod)) }
        }
        return nil
    }
}
