import CJack
import CLink
import EntrainCore
import EntrainEngine
import Synchronization

/// Ableton Link on the process thread. Each cycle reads the session once (Link's audio-thread
/// capture: no allocation, no lock) and, while following, finds the session's beats in the
/// period; while leading, it commits the beats found on beat_in. Times are JACK's (µs); a
/// frame's time is its cycle's start plus its place in the cycle.
struct LinkProcess: ~Copyable {
    enum Mode: Int { case off = 0, follow, lead }

    /// The session (owned by `LinkSession`, which outlives every activation).
    var session: OpaquePointer?
    /// Control side → process thread: the mode in force and the quantum (Double bits).
    let mode = Atomic<Int>(Mode.off.rawValue)
    let quantumBits = Atomic<UInt64>(4.0.bitPattern)
    /// Process thread → control side: the latest session beat played (engine frame of the sound,
    /// beat number) and a beat's length in frames (Double bits), for the ambient conductor.
    let lastBeat = SeqLockedPair()
    let framesPerBeatBits = Atomic<UInt64>(0)

    /// This period's session beats: `sound` where the audio is heard on them (the LED's and the
    /// ambient engine's), `midi` where midi_out's messages are sent on them (no latency known).
    var sound = Beats()
    var midi = Beats()
    var tempo = 0.0
    var framesPerBeat = 0.0
    /// Leading: the tempo committed (a line through the last beats heard); 0 = not leading yet.
    var ledTempo = 0.0
    var ledBeats = BeatLineFit()
    /// Leading: the latest onset heard and the latest beat (JACK µs), and how far from that beat
    /// the onset that stands for it was (infinity: none yet).
    var lastOnset = -Double.infinity
    var lastBeatHeard = -Double.infinity
    var lastBeatOnsetDistance = Double.infinity

    struct Beats {
        var frames = InlineArray<8, Int64>(repeating: 0)
        var numbers = InlineArray<8, Int64>(repeating: 0)
        var count = 0
    }

    static let phaseSmoothing = 0.5

    var currentMode: Mode { Mode(rawValue: mode.load(ordering: .relaxed)) ?? .off }
    var quantum: Double { Double(bitPattern: quantumBits.load(ordering: .relaxed)) }

    /// Following: the session's beats in the period from engine frame `start` (`frames` long).
    /// `soundLatency`: frames from our output to the listener (JACK's playback latency plus our
    /// own look-ahead).
    mutating func follow(_ client: OpaquePointer, start: Int64, frames: Int, soundLatency: Int) {
        sound.count = 0
        midi.count = 0
        guard let session, currentMode == .follow else { return }
        var cycleFrames: jack_nframes_t = 0, current: jack_time_t = 0, next: jack_time_t = 0
        var periodMicros: Float = 0
        guard jack_get_cycle_times(client, &cycleFrames, &current, &next, &periodMicros) == 0, periodMicros > 0 else { return }
        let now = Int64(jack_get_time())
        var moment = entrain_link_moment()
        entrain_link_audio_moment(session, Int64(current), now, quantum, &moment)
        guard moment.tempo > 0 else { return }
        let microsPerFrame = Double(periodMicros) / Double(frames)
        tempo = moment.tempo
        framesPerBeat = 60e6 / moment.tempo / microsPerFrame
        Self.place(&midi, beatAtStart: moment.beat, latency: 0, framesPerBeat: framesPerBeat, start: start, frames: frames)
        Self.place(&sound, beatAtStart: moment.beat, latency: soundLatency, framesPerBeat: framesPerBeat, start: start, frames: frames)
        if sound.count > 0 {
            lastBeat.write(UInt64(bitPattern: sound.frames[sound.count - 1]), UInt64(bitPattern: sound.numbers[sound.count - 1]))
        }
        framesPerBeatBits.store(framesPerBeat.bitPattern, ordering: .relaxed)
    }

    /// The whole beats whose time falls in the period, given the session's beat at the cycle's
    /// start: a frame is heard `latency` frames after it is written.
    private static func place(_ beats: inout Beats, beatAtStart: Double, latency: Int, framesPerBeat: Double,
                              start: Int64, frames: Int) {
        let first = beatAtStart + Double(latency) / framesPerBeat
        var n = first.rounded(.up)
        var offset = (n - first) * framesPerBeat
        while offset < Double(frames) && beats.count < 8 {
            beats.frames[beats.count] = start + Int64(offset.rounded(.down))
            beats.numbers[beats.count] = Int64(n)
            beats.count += 1
            n += 1
            offset += framesPerBeat
        }
    }

    /// Leading: each beat found on beat_in this period (confident, with a tempo) moves the session
    /// towards the line through the last beats heard (`BeatLineFit`): its tempo, and its time
    /// pulled half-way onto a whole session beat. A beat is placed where the onset nearest to it
    /// was heard (within an eighth of a beat, 60 ms at most), else where the tracker put it: the
    /// tracker predicts, and a cycle lost to an xrun leaves its prediction a period late until it
    /// re-phases, while an onset is stamped where it was heard. Times are wall-clock, so a lost
    /// cycle moves one beat by a period at most, not the tempo.
    /// `inputLatency`: frames between the sound reaching the system and beat_in (capture latency).
    mutating func lead(_ client: OpaquePointer, _ engine: UnsafeMutablePointer<Engine>, start: Int64, frames: Int,
                       inputLatency: Int) {
        guard let session, currentMode == .lead else {
            ledTempo = 0
            ledBeats.reset()
            return
        }
        var cycleFrames: jack_nframes_t = 0, current: jack_time_t = 0, next: jack_time_t = 0
        var periodMicros: Float = 0
        guard jack_get_cycle_times(client, &cycleFrames, &current, &next, &periodMicros) == 0, periodMicros > 0 else { return }
        let microsPerFrame = Double(periodMicros) / Double(frames)
        for k in 0..<Engine.beatEventCount(engine) {
            let event = Engine.beatEvent(engine, k)
            let heard = Double(current) + Double(event.frame - start - Int64(inputLatency)) * microsPerFrame
            if event.kind == .onset {
                lastOnset = heard
                let distance = abs(heard - lastBeatHeard)
                if ledTempo > 0, distance < Self.onsetWindow(ledTempo), distance < lastBeatOnsetDistance {
                    ledBeats.moveLast(to: heard)
                    lastBeatOnsetDistance = distance
                }
                continue
            }
            guard event.bpm > 0, event.strength >= Self.minimumConfidence else { continue }
            lastBeatHeard = heard
            lastBeatOnsetDistance = abs(lastOnset - heard)
            let onTime = lastBeatOnsetDistance < Self.onsetWindow(Double(event.bpm))
            if !onTime { lastBeatOnsetDistance = .infinity }
            let line = ledBeats.add(time: onTime ? lastOnset : heard, bpm: Double(event.bpm))
            let now = Int64(jack_get_time())
            let at = Int64(line.time.rounded())
            var moment = entrain_link_moment()
            entrain_link_audio_moment(session, at, now, quantum, &moment)
            let pull = ledTempo == 0 ? 1 : Self.phaseSmoothing
            ledTempo = line.bpm
            let beat = moment.beat + pull * (moment.beat.rounded() - moment.beat)
            entrain_link_audio_lead(session, ledTempo, beat, at, now, quantum)
        }
    }

    /// How far from a beat (µs) an onset may be heard and still stand for it.
    static func onsetWindow(_ bpm: Double) -> Double { min(60e6 / bpm / 8, 60_000) }

    /// The beat tracker's confidence below which its beat does not lead (as the ambient engine).
    static let minimumConfidence: Float = 0.2
}
