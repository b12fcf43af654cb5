import EntrainDSP

/// A straight line through the times of the last beats heard (µs against beat number): the
/// tempo and phase a Link session is led by. One beat's time can be a period off — a cycle lost
/// to an xrun takes a period out of what the tracker hears, so its next beats come a period late
/// until it re-phases — and a tracker's tempo counted in the frames it heard runs fast by the
/// frames it lost. A line through 16–32 beats in wall-clock time is off by a fraction of that.
///
/// Two running sums, no storage per beat: `current` is what the line is read from; `fresh` starts
/// once `current` holds `window` beats and replaces it at twice that, so the line always spans the
/// last 16–32 beats. A beat far off the line (the tracker changed its phase or tempo) starts over.
public struct BeatLineFit {
    /// Running sums of (beat number, time) relative to an origin, for a least-squares line.
    struct Sums {
        var originBeat: Int64 = 0
        var originTime: Double = 0
        var count = 0.0, k = 0.0, t = 0.0, kk = 0.0, kt = 0.0

        init(beat: Int64, time: Double) { originBeat = beat; originTime = time }

        mutating func add(beat: Int64, time: Double, weight: Double = 1) {
            let x = Double(beat - originBeat), y = time - originTime
            count += weight; k += weight * x; t += weight * y; kk += weight * x * x; kt += weight * x * y
        }

        /// µs per beat and the line's time at `beat`; nil while fewer than two beats differ.
        func line(at beat: Int64) -> (slope: Double, time: Double)? {
            let spread = count * kk - k * k
            guard count >= 2, spread > 0 else { return nil }
            let slope = (count * kt - k * t) / spread
            let intercept = (t - slope * k) / count
            return (slope, originTime + intercept + slope * Double(beat - originBeat))
        }
    }

    /// Beats a line needs before it is trusted over the tracker's own tempo.
    public static let minimumBeats = 4
    /// Beats after which a second line starts (and replaces the first at twice as many).
    public static let window = 16
    /// A beat further than this fraction of a beat from the line starts the line over.
    public static let tolerance = 0.2

    var current: Sums?
    var fresh: Sums?
    var lastBeat: Int64 = 0
    var lastTime = 0.0

    public init() {}

    /// Forgets every beat (leading stopped).
    public mutating func reset() { current = nil; fresh = nil }

    /// Adds a beat heard at `time` (µs) while the tracker's tempo is `bpm`, and returns the tempo
    /// and the time of this beat on the line (the tracker's own when the line is too short yet).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func add(time: Double, bpm: Double) -> (bpm: Double, time: Double) {
        let trackerBeat = 60e6 / bpm
        guard var sums = current else { return start(time: time, bpm: bpm) }
        let steps = max(1, FastMath.floor((time - lastTime) / trackerBeat + 0.5))
        let beat = lastBeat + Int64(steps)
        if let fitted = sums.line(at: beat), sums.count >= Double(Self.minimumBeats) {
            let offBeat = abs(time - fitted.time) / fitted.slope
            let offTempo = abs(fitted.slope - trackerBeat) / trackerBeat
            if offBeat > Self.tolerance || offTempo > Self.tolerance / 4 { return start(time: time, bpm: bpm) }
        }
        sums.add(beat: beat, time: time)
        lastBeat = beat
        lastTime = time
        fresh?.add(beat: beat, time: time)
        if fresh == nil && sums.count >= Double(Self.window) { fresh = Sums(beat: beat, time: time); fresh?.add(beat: beat, time: time) }
        if let next = fresh, next.count >= Double(Self.window) { sums = next; fresh = nil }
        current = sums
        guard sums.count >= Double(Self.minimumBeats), let fitted = sums.line(at: beat) else { return (bpm, time) }
        return (60e6 / fitted.slope, fitted.time)
    }

    /// Moves the last beat added to `time` (an onset heard closer to where the beat was than the
    /// tracker put it): the line is as if it had been added there.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func moveLast(to time: Double) {
        guard current != nil else { return }
        current?.add(beat: lastBeat, time: lastTime, weight: -1)
        current?.add(beat: lastBeat, time: time)
        if fresh != nil {
            fresh?.add(beat: lastBeat, time: lastTime, weight: -1)
            fresh?.add(beat: lastBeat, time: time)
        }
        lastTime = time
    }

    private mutating func start(time: Double, bpm: Double) -> (bpm: Double, time: Double) {
        var sums = Sums(beat: 0, time: time)
        sums.add(beat: 0, time: time)
        current = sums
        fresh = nil
        lastBeat = 0
        lastTime = time
        return (bpm, time)
    }
}
