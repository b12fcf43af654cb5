import Foundation

/// Beats from the tempo-and-phase filter (`BeatStateSpace`): each predicted on its frame from
/// the filter's most likely tempo and position, published once the grid stands out of the
/// activation, kept through breaks, stopped when the music stops.
///
/// Confidence is the grid's contrast: the activation's peaks on the last four beats against
/// its mean between them (noise about 1.5, sustained pads up to about 2.4, drums 5 to 25),
/// mapped to 1 − 1.5 / contrast. Beats go out once it reaches `/beat/confidence/min` (0.6: a
/// contrast of 3.75) while the input sounds, and keep going through a break until the input
/// stops sounding for 1.5 beats or no onset came for 16 beats.
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
    /// Activation summed since the last judged beat, and the frames it covers.
    private var sinceBeat = 0.0
    private var sinceBeatFrames = 0
    /// The last four beats' peaks and the means between them, as rings.
    private var peaks = InlineArray<4, Double>(repeating: 0)
    private var means = InlineArray<4, Double>(repeating: 0)
    private var judged = 0
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

    private(set) var confidence: Float = 0
    private(set) var publishing = false
    var minimumConfidence: Float = 0.6
    private var lastSound: Int64 = .min / 2
    private var lastOnset: Int64 = .min / 2
    private(set) var latestEnd: Int64 = 0

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

    /// The interval between the beats decided, smoothed (engine frames; 0: none yet): the tempo
    /// reported. The grid's intervals are whole analysis frames (120 BPM is 93.75; the grid has 93
    /// and 95), and the filter's most likely one alone read 118.4 for 120.
    private var smoothedInterval = 0.0
    var bpm: Double { smoothedInterval > 0 ? 60 * sampleRate / smoothedInterval : space.bpm(ofTempo: space.tempo) }
    /// Beat period in engine frames.
    var period: Int64 { Int64(space.intervals[space.tempo]) * frameSamples }
    var locked: Bool { publishing }

    mutating func onset(frame: Int64) { lastOnset = frame }

    /// One analysis frame: its raw activation (≥ 0), the engine frame just past it, and whether
    /// the input sounded in it.
    mutating func frame(_ value: Double, end: Int64, sounding: Bool) {
        latestEnd = end
        if sounding { lastSound = end }
        peak = max(value, peak * peakDecay)
        // Squared: a hat or a shaker at half the peak counts a quarter, so the off-beats of a
        // slow groove do not pull it to double tempo as they did scaled linearly.
        let share = peak > 0 ? min(1, value / peak) : 0
        let a = Self.floor + (1 - 2 * Self.floor) * share * share
        space.step(a)
        recent[frameIndex % recentCapacity] = value
        sinceBeat += value
        sinceBeatFrames += 1
        judge()
        let interval = space.intervals[space.tempo], position = space.position
        let phase = Double(position) / Double(interval)
        let wrapped = phase < lastPhase - 0.5
        // A beat went by: judge it once its peak has been heard.
        if wrapped && toJudge < 0 { toJudge = frameIndex - position }
        // Decided two frames ahead: a tempo's argmax position may step over its last frame.
        if interval - position <= 2 {
            decide(end + Int64(interval - position) * frameSamples - stampOffset)
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
        lastSound -= shift
        lastOnset -= shift
    }

    /// Reads the peak of the beat predicted at `toJudge` two frames after it: the contrast of
    /// the last four beats' peaks against the activation's mean between them.
    private mutating func judge() {
        guard toJudge >= 0, frameIndex >= toJudge + 2 else { return }
        var top = 0.0
        for i in max(max(0, toJudge - 2), frameIndex - recentCapacity + 1)...frameIndex { top = max(top, recent[i % recentCapacity]) }
        toJudge = -1
        peaks[judged % 4] = top
        means[judged % 4] = sinceBeatFrames > 0 ? sinceBeat / Double(sinceBeatFrames) : 0
        judged += 1
        sinceBeat = 0
        sinceBeatFrames = 0
        if judged >= 4 {
            var p = 0.0, m = 0.0
            for i in 0..<4 {
                p += peaks[i]
                m += means[i]
            }
            let contrast = m > 0 ? p / m : 0
            confidence = contrast > 1.5 ? Float(1 - 1.5 / contrast) : 0
        }
    }

    /// A beat on `frame`, unless one was decided less than 0.7 beats before it.
    private mutating func decide(_ frame: Int64) {
        guard frame - lastDecided > Int64(0.7 * Double(period)), dueCount < 4 else { return }
        let grid = Double(period), gap = Double(frame - lastDecided)
        if gap > 0.8 * grid && gap < 1.25 * grid {
            let near = smoothedInterval > 0 && abs(smoothedInterval - grid) < 0.1 * grid
            smoothedInterval = near ? smoothedInterval + 0.25 * (gap - smoothedInterval) : gap
        } else {
            smoothedInterval = 0
        }
        due[(dueHead + dueCount) % 4] = frame
        dueCount += 1
        lastDecided = frame
    }

    /// The next beat to publish before engine frame `end`, if any.
    mutating func beat(before end: Int64) -> Beat? {
        while dueCount > 0, due[dueHead] < end {
            let frame = due[dueHead]
            dueHead = (dueHead + 1) % 4
            dueCount -= 1
            let beats = Double(period)
            let sounding = Double(latestEnd - lastSound) < 1.5 * beats
            let onsetsGoing = Double(latestEnd - lastOnset) < 16 * beats
            if !publishing && sounding && confidence >= minimumConfidence && judged >= 4 { publishing = true }
            if publishing && (!sounding || !onsetsGoing) { publishing = false }
            if publishing { return Beat(frame: frame, confidence: confidence, period: Int(period)) }
        }
        return nil
    }
}
