import ArgumentParser
import EntrainEngine

/// MIDI options of `run`: the midi_out port with clock and notes from the beats on beat_in.
struct MIDIOptions: ParsableArguments {
    @Flag(name: .customLong("midi-clock"), help: "Register midi_out: MIDI clock (24 per quarter note) on the beats found on beat_in, on the ambient engine's beat between them (gliding, never stopping), a note per beat and per onset.")
    var clock = false
    @Option(name: .customLong("midi-clock-source"), help: "What the MIDI clock follows: beat (the beats found on beat_in), transport (JACK transport while it rolls with bars and beats) or link (the Ableton Link session's beats while following one; see --link).")
    var source = "beat"
    @Flag(name: .customLong("timebase"), help: "Be JACK's timebase master (unless another client is): 4/4 bars and beats at the tempo found on beat_in, each beat starting on a detected beat, so a DAW can follow.")
    var timebase = false
    @Flag(name: .customLong("midi-in"), help: "Register midi_in: notes set the LED and haptic manual levels, controllers move the addresses bound by /midi/map or /midi/learn.")
    var input = false
    @Option(name: .customLong("midi-channel"), help: "MIDI channel of the notes, 1-16 (default 10, drums).")
    var channel = 10
    @Option(name: .customLong("midi-beat-note"), help: "Note on each beat, 0-127, or -1 for none (default 36).")
    var beatNote = 36
    @Option(name: .customLong("midi-onset-note"), help: "Note on each onset, 0-127, or -1 for none (default 38).")
    var onsetNote = 38

    func validate() throws {
        guard ["beat", "transport", "link"].contains(source) else { throw ValidationError("--midi-clock-source must be beat, transport or link, got '\(source)'") }
        guard (1...16).contains(channel) else { throw ValidationError("--midi-channel must be 1 to 16, got \(channel)") }
        for (name, note) in [("--midi-beat-note", beatNote), ("--midi-onset-note", onsetNote)] where !(-1...127).contains(note) {
            throw ValidationError("\(name) must be 0 to 127 (or -1 for none), got \(note)")
        }
    }

    var settings: BeatMIDISettings? {
        guard clock else { return nil }
        var s = BeatMIDISettings()
        s.channel = channel - 1
        s.beatNote = beatNote >= 0 ? beatNote : nil
        s.onsetNote = onsetNote >= 0 ? onsetNote : nil
        return s
    }
}
