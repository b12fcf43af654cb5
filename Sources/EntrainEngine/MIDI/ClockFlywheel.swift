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
/// Once on the target, each beat lands on its frame exactly. Plain state: the process thread's.
public struct ClockFlywheel {
    /// The most a beat's length may differ from the previous one's, as a fraction.
    public static let slew = 0.05

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
            send(at: first, strength: strength, sampleRate: sampleRate, into: body)
        }
        while let last, max(start, last + length) < end {
            let next = max(start, last + length)
            if let target {
                // Within the slew of the target's beat (a phase moves over several beats), and of
                // the last beat's length (a tempo glides).
                let own = Int64(target.period.rounded()), most = Int64(Double(length) * Self.slew)
                let aim = target.beat(nearest: next + own) - next, reach = Int64(target.period * Self.slew)
                let steered = min(own + reach, max(own - reach, aim))
                length = max(24, min(length + most, max(length - most, steered)))
            }
            send(at: next, strength: strength, sampleRate: sampleRate, into: body)
        }
    }

    private mutating func send(at frame: Int64, strength: Float, sampleRate: Double, into body: (BeatEvent) -> Void) {
        count = count == Int32.max ? 2 : count + 1
        last = frame
        body(BeatEvent(kind: .beat, frame: frame, strength: strength, count: count,
                       bpm: Float(60 * sampleRate / Double(length)), framesToNext: Int32(clamping: length)))
    }
}
