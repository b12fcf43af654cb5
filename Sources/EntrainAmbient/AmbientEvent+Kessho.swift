import EntrainDSP
import EntrainEngine
import Kessho

/// The conductor's events, built in one place.
extension AmbientEvent {
    static func play(at frame: Int64, seed: UInt64, fadeSeconds: Double, settings: AmbientSettings) -> AmbientEvent {
        var event = AmbientEvent(frame: frame, kind: .play)
        event.seed = seed
        event.seconds = fadeSeconds
        event.settings = settings
        return event
    }

    static func stop(at frame: Int64, fadeSeconds: Double) -> AmbientEvent {
        var event = AmbientEvent(frame: frame, kind: .stop)
        event.seconds = fadeSeconds
        return event
    }

    static func settings(_ settings: AmbientSettings, at frame: Int64) -> AmbientEvent {
        var event = AmbientEvent(frame: frame, kind: .settings)
        event.settings = settings
        return event
    }

    /// The chord's first six notes, voice i entering `offsets[i]` seconds late.
    static func chord(_ chord: KesshoChord, at frame: Int64,
                      offsets: InlineArray<6, Double> = InlineArray(repeating: 0)) -> AmbientEvent {
        var event = AmbientEvent(frame: frame, kind: .chord)
        event.offsets = offsets
        event.chordSize = min(chord.frequencies.count, 6)
        for i in 0..<event.chordSize { event.chord[i] = chord.frequencies[i] }
        return event
    }

    /// The granulator's next draws: the engine stream from `counter` on.
    static func grainSequence(at frame: Int64, streamCounter counter: Double) -> AmbientEvent {
        var event = AmbientEvent(frame: frame, kind: .grainSequence)
        event.streamCounter = counter
        return event
    }
}
