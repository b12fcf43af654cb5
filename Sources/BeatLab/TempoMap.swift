/// Maps a musical position (in quarter notes from the first beat) to a time in seconds.
///
/// Piecewise: each segment starts at a beat with a tempo that changes linearly in time
/// (slope 0 for a steady tempo). Positions follow the integrated tempo, so swung and 16th-note
/// positions stretch with a ramp exactly as the beats do.
struct TempoMap {
    struct Segment {
        var startBeat: Double
        var startTime: Double
        var bpm: Double
        /// BPM gained per second.
        var slope: Double
    }

    private(set) var segments: [Segment]

    static func steady(_ bpm: Double, firstBeat: Double) -> TempoMap {
        TempoMap(segments: [Segment(startBeat: 0, startTime: firstBeat, bpm: bpm, slope: 0)])
    }

    /// `from` until beat `atBeat`, then `to` at once.
    static func jump(from: Double, to: Double, atBeat: Double, firstBeat: Double) -> TempoMap {
        let first = Segment(startBeat: 0, startTime: firstBeat, bpm: from, slope: 0)
        let second = Segment(startBeat: atBeat, startTime: firstBeat + atBeat * 60 / from, bpm: to, slope: 0)
        return TempoMap(segments: [first, second])
    }

    /// Tempo rising (or falling) linearly in time from `from` to `to` over `seconds`, then steady.
    static func ramp(from: Double, to: Double, over seconds: Double, firstBeat: Double) -> TempoMap {
        let slope = (to - from) / seconds
        // Beats elapsed during the ramp: the integral of bpm/60 over it.
        let rampBeats = (from * seconds + slope * seconds * seconds / 2) / 60
        return TempoMap(segments: [
            Segment(startBeat: 0, startTime: firstBeat, bpm: from, slope: slope),
            Segment(startBeat: rampBeats, startTime: firstBeat + seconds, bpm: to, slope: 0),
        ])
    }

    func time(ofBeat beat: Double) -> Double {
        let s = segments.last { $0.startBeat <= beat } ?? segments[0]
        let beats = beat - s.startBeat
        // Solves (bpm·τ + slope·τ²/2) / 60 = beats for τ; this form has no cancellation and
        // reduces to 60·beats/bpm when the slope is 0.
        let tau = 120 * beats / (s.bpm + (s.bpm * s.bpm + 120 * s.slope * beats).squareRoot())
        return s.startTime + tau
    }
}
