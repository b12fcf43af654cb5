import CJack
import EntrainCore

/// JACK transport both ways, on the process thread (jack_transport_query is real-time safe; the
/// timebase callback runs right after process): beats from a rolling transport with bars and
/// beats for the MIDI clock, and bars and beats at the detected tempo as timebase master.
struct TransportTempo {
    /// Timebase master: the tempo last detected on beat_in (120 until one is), and the beats
    /// counted since the transport's frame 0 at the tempos in force.
    var detectedBPM = 0.0
    var beats = 0.0
    var lastFrame: jack_nframes_t = 0
    var counting = false
    /// The last beat detected on beat_in (engine frame) and a beat's length then (frames; 0: none
    /// yet): where the timebase master puts its beats' tick 0. Transport frame = engine frame +
    /// `transportOffset`, read each cycle while the transport rolls (nil otherwise).
    var detectedBeat: Int64 = 0
    var detectedPeriod = 0.0
    var transportOffset: Int64?
    /// Aligned since the last relocation (the first alignment after one only moves forward).
    var alignedSinceLocate = false
    /// Follower: whether the transport rolled in the previous period, the last beat sent (its
    /// number from bar 1 beat 1), and the previous period's position, for the beats' real length.
    var wasRolling = false
    var lastBeat = -1
    var lastPosition = 0.0
    var anchorPosition = 0.0
    var anchorStart: Int64 = 0

    static let ticksPerBeat = 1920.0

    /// The transport's beats starting inside the period [start, start + frames) (engine frames), as
    /// beat events for the MIDI clock; `stopped` is set when it stopped since the last period.
    mutating func beats(_ client: OpaquePointer, start: Int64, frames: Int, into body: (BeatEvent) -> Void) -> Bool {
        var position = jack_position_t()
        let state = jack_transport_query(client, &position)
        let rolling = state == JackTransportRolling
        defer { wasRolling = rolling }
        guard rolling, position.valid.rawValue & JackPositionBBT.rawValue != 0, position.beats_per_minute > 0,
              position.frame_rate > 0 else { return wasRolling && !rolling }
        let ticks = position.ticks_per_beat > 0 ? Double(position.tick) / position.ticks_per_beat : 0
        let at = Double(position.bar - 1) * Double(position.beats_per_bar) + Double(position.beat - 1) + ticks
        // A beat's length as the master really advances (a master rounding its ticks runs off its
        // nominal tempo), else from the tempo; a jump back (a relocation) forgets the beats sent.
        // Measured since the transport started rolling (or was relocated), once a beat has passed:
        // one period's advance is too coarse in whole ticks.
        if !wasRolling || at < lastPosition {
            lastBeat = Int(at.rounded(.up)) - 1
            anchorPosition = at
            anchorStart = start
        }
        var perBeat = Double(position.frame_rate) * 60 / position.beats_per_minute
        if at - anchorPosition >= 1 { perBeat = Double(start - anchorStart) / (at - anchorPosition) }
        lastPosition = at
        var next = at.rounded(.up)
        while (next - at) * perBeat < Double(frames) {
            let offset = Int64(((next - at) * perBeat).rounded())
            // The beat the last period placed near its end arrives here again at offset 0.
            if offset < Int64(frames) && Int(next) > lastBeat {
                body(BeatEvent(kind: .beat, frame: start + offset, strength: 1, count: Int32(clamping: Int(next) + 1),
                               bpm: Float(position.beats_per_minute), framesToNext: Int32(perBeat.rounded())))
                lastBeat = Int(next)
            }
            next += 1
        }
        return false
    }

    /// The timebase callback's work: 4/4 bars and beats at the detected tempo, each beat's tick 0
    /// on a detected beat's frame while beats are found (within two beats of the last).
    mutating func fill(_ position: UnsafeMutablePointer<jack_position_t>, newPosition: Bool) {
        let rate = position.pointee.frame_rate > 0 ? Double(position.pointee.frame_rate) : 48_000
        let bpm = detectedBPM > 0 ? detectedBPM : 120
        let perBeat = rate * 60 / bpm
        let frame = Int64(position.pointee.frame)
        if newPosition || !counting {
            beats = Double(frame) / perBeat
            counting = true
            alignedSinceLocate = false
        } else {
            let advance = Double(frame - Int64(lastFrame)) / perBeat
            if let aligned = aligned(at: frame, counted: beats + advance) {
                // Never back: behind the detected phase, the count goes on at half speed until it
                // is on it; the first time after a relocation it moves forward onto it at once.
                beats = alignedSinceLocate ? max(aligned, beats + advance / 2) : aligned < beats + advance ? aligned + 1 : aligned
                alignedSinceLocate = true
            } else {
                beats += advance
            }
        }
        lastFrame = position.pointee.frame
        let whole = Int(beats.rounded(.down))
        position.pointee.bar = Int32(clamping: whole / 4 + 1)
        position.pointee.beat = Int32(whole % 4 + 1)
        position.pointee.ticks_per_beat = Self.ticksPerBeat
        position.pointee.tick = Int32((beats - Double(whole)) * Self.ticksPerBeat)
        position.pointee.bar_start_tick = Double(whole / 4) * 4 * Self.ticksPerBeat
        position.pointee.beats_per_bar = 4
        position.pointee.beat_type = 4
        position.pointee.beats_per_minute = bpm
        position.pointee.valid = jack_position_bits_t(rawValue: position.pointee.valid.rawValue | JackPositionBBT.rawValue)
    }

    /// The count at transport frame `frame` with the last detected beat on a whole beat (the one
    /// nearest where `counted` puts it, so bars go on from where they are); nil without a recent beat.
    private func aligned(at frame: Int64, counted: Double) -> Double? {
        guard detectedPeriod > 0, let transportOffset else { return nil }
        let since = Double(frame - detectedBeat - transportOffset) / detectedPeriod
        guard since > -1, since < 2 else { return nil }
        return (counted - since).rounded() + since
    }
}
