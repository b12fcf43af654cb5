import EntrainCore

/// The MIDI clock's beats when it follows beat_in and, while nothing is found there, the phrase
/// grid: one beat source that neither stops nor jumps, so a drum machine following the clock
/// sees it run on through every hand-over.
///
/// Each beat's length is fixed when the beat starts (its 24 clocks are spaced by it): aimed at the
/// target grid's beat nearest one target beat ahead, the target being the detected beats while
/// they come, the phrase grid otherwise. The length stays within `slew` of the target's beat and
/// of the previous beat's length, so a change of target, tempo or phase glides over a few beats
/// (a half-beat phase move over ten): every quarter has its 24 clocks, and the clock's spacing
/// stays between the two tempos' (less and more the slew), changing by at most `slew` a beat.
/// Once locked — the target's tempo within `steadyBand` of the clock's, and its phase too but
/// for a beat or two (the tracker's jitter; a real move lasts) — the clock keeps a tempo of its
/// own. For its first `settleBeats` beats locked it settles: the tempo moves a quarter of the
/// way to the target's (at most `settleTempo` a beat) and a beat may differ from it by
/// `settlePhase` to correct the phase. The tempo it locked with is the tracker's estimate of the
/// moment, often half a percent off; followed only at the steady rates, it left the clock's
/// beats 10–16 ms off the drums for twenty beats and more. Then, settled, the tempo is an
/// average of the target's (a sixteenth of the way, at most `steadyTempo` a beat) and each beat
/// differs from it by at most `steadyPhase`, together within `steady` of the beat's tempo: the
/// tracker's beat-to-beat jitter is not passed on as tempo (it was, up to 5 % a beat, and a
/// receiver heard the clock wobble). Once on an exact target (the phrase grid), each beat
/// lands on its frame exactly.
/// Plain state: the process thread's.
public struct ClockFlywheel {
    /// The most a beat's length may differ from the previous one's, as a fraction.
    public static let slew = 0.05
    /// Locked: the most a beat may differ from the tempo followed, and its parts: how far the
    /// tempo may move in a beat and a beat differ from it to correct the phase.
    public static let steady = 0.002
    static let steadyTempo = 0.0003, steadyPhase = 0.001
    static let settleBeats = 8, settleTempo = 0.002, settlePhase = 0.005
    /// A target whose tempo and phase are within this fraction of a beat of the clock's is
    /// followed steadily; beyond it (the phase for `movedAfter` beats running) is a new tempo or
    /// phase, reached within `slew` a beat.
    public static let steadyBand = 0.03
    static let movedAfter = 3

    /// A grid to follow: the engine frame of one of its beats and a beat's length in frames.
    public struct Grid: Equatable, Sendable {
        public var frame: Int64
        public var period: Double
        public init(frame: Int64, period: Double) {
            self.frame = frame
            self.period = period
        }

        /// The frame of this grid's beat nearest `frame`.
        func beat(nearest frame: Int64) -> Int64 {
            self.frame + Int64((((Double(frame - self.frame) / period).rounded()) * period).rounded())
        }
    }

    /// The last beat sent (engine frame) and its length in frames; nil before the first.
    public private(set) var last: Int64?
    public private(set) var length: Int64 = 0
    /// The tempo the clock follows, a beat's length in frames.
    var tempo = 0.0
    /// Beats running whose target lay outside the steady band.
    var outside = 0
    /// Beats since the clock locked (the target's tempo and phase came into the steady band).
    var lockedBeats = 0
    var count: Int32 = 0

    public init() {}

    /// The beats starting inside [start, end) as beat events (the first counted 1, for Start),
    /// following `target` (nil: none known; the beats then keep their length).
    public mutating func beats(start: Int64, end: Int64, target: Grid?, strength: Float, sampleRate: Double,
                               into body: (BeatEvent) -> Void) {
        let target = target.flatMap { $0.period >= 24 ? $0 : nil }
        if last == nil {
            // The first beat: on the target's first beat in this period.
            guard let target else { return }
            var first = target.beat(nearest: start)
            if first < start { first = target.beat(nearest: first + Int64(target.period.rounded())) }
            guard first < end else { return }
            length = Int64(target.period.rounded())
            tempo = target.period
            send(at: first, strength: strength, sampleRate: sampleRate, into: body)
        }
        while let last, max(start, last + length) < end {
            let next = max(start, last + length)
            if let target { length = steer(next, towards: target) }
            send(at: next, strength: strength, sampleRate: sampleRate, into: body)
        }
    }

    /// The length of the beat starting at `next`: the tempo followed, corrected towards the
    /// target's beat nearest one beat on; within the slew of the last beat's length.
    private mutating func steer(_ next: Int64, towards target: Grid) -> Int64 {
        let band = Self.steadyBand * tempo
        let tempoLocked = abs(target.period - tempo) <= band
        let settling = lockedBeats < Self.settleBeats
        if tempoLocked {
            let most = (settling ? Self.settleTempo : Self.steadyTempo) * tempo, move = target.period - tempo
            tempo += abs(move) < 1 ? move : min(most, max(-most, move / (settling ? 4 : 16)))  // an exact target is reached exactly
            lockedBeats += 1
        } else {
            tempo = target.period
            lockedBeats = 0
        }
        let error = Double(target.beat(nearest: next + Int64(tempo.rounded())) - next) - tempo
        outside = abs(error) > band ? outside + 1 : 0
        if outside >= Self.movedAfter { lockedBeats = 0 }  // a new phase: glided onto, then settled on again
        let phase = settling ? Self.settlePhase : Self.steadyPhase
        let reach = (tempoLocked && outside < Self.movedAfter ? phase : Self.slew) * tempo
        let steered = Int64((tempo + min(reach, max(-reach, error))).rounded())
        let most = Int64(Double(length) * Self.slew)
        return max(24, min(length + most, max(length - most, steered)))
    }

    private mutating func send(at frame: Int64, strength: Float, sampleRate: Double, into body: (BeatEvent) -> Void) {
        count = count == Int32.max ? 2 : count + 1
        last = frame
        body(BeatEvent(kind: .beat, frame: frame, strength: strength, count: count,
                       bpm: Float(60 * sampleRate / Double(length)), framesToNext: Int32(clamping: length)))
    }
}
