import EntrainCore
import EntrainDSP

/// The generative-ambient engine on `ambient_L/R`. The sound is `AmbientSound`; the harmony runs
/// on the control side (it hashes strings) and reaches this plugin as events on their exact
/// frames: chords with their stagger, the granulator's per-phrase draws, settings, play and
/// stop. While stopped and faded out it computes nothing.
///
/// Lead notes, drum hits and the Euclid lanes' pad notes arrive the same way, each on its frame.
struct AmbientPlugin {
    let sampleRate: Double
    var sound: AmbientSound
    /// Computing sound: from a play event until a stop's fade-out has finished.
    var running = false
    var stopping = false
    /// The version of the settings in force (see `AmbientEvent.version`).
    var settingsVersion: UInt64 = 0
    /// The chord now sounding, as notes, for hosted instrument plugins.
    var chordNotes = ChordNotes()

    init(sampleRate: Double, quality: FDNReverb.Quality) {
        self.sampleRate = sampleRate
        sound = AmbientSound(sampleRate: sampleRate, quality: quality, blockCapacity: Engine.maximumChunk)
    }

    func deallocate() { sound.deallocate() }

    /// Apply `event`, which falls on the current frame.
    @inline(__always)
    mutating func apply(_ event: AmbientEvent, bus: inout OutputBus) {
        switch event.kind {
        case .settings:
            applySettings(event)
        case .chord:
            sound.play(chord: event.chord, size: event.chordSize, offsets: event.offsets)
            chordNotes.set(event.chord, size: event.chordSize, at: event.frame)
        case .grainSequence:
            sound.loadGrainSequence(streamCounter: event.streamCounter)
        case .play:
            sound.reseed(event.seed)
            applySettings(event)
            running = true
            stopping = false
            bus.fade(to: 1, frames: Int(event.seconds * sampleRate))
        case .stop:
            stopping = true
            chordNotes.clear(at: event.frame)
            bus.fade(to: 0, frames: Int(event.seconds * sampleRate))
        case .leadNote:
            sound.play(note: event.note)
        case .drumHit:
            sound.play(hit: event.hit)
        case .padNote:
            sound.playPad(voice: event.padVoice, frequency: event.chord[0], velocity: event.seconds)
        case .padRelease:
            sound.releasePad()
            chordNotes.clear(at: event.frame)
        }
    }

    /// An event's settings, unless newer ones are in force already.
    @inline(__always)
    mutating func applySettings(_ event: AmbientEvent) {
        guard event.version >= settingsVersion else { return }
        settingsVersion = event.version
        sound.apply(event.settings)
    }

    /// Render `range` of the ambient master (before the output bus) into `left`/`right`.
    @inline(__always)
    mutating func render(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, _ range: Range<Int>) {
        sound.render(into: left + range.lowerBound, right + range.lowerBound, frames: range.count)
    }

    /// After the output bus: a finished stop fade ends the computing.
    @inline(__always)
    mutating func endRange(bus: OutputBus) {
        if stopping && bus.isSilent {
            running = false
            stopping = false
            sound.releaseAll()
        }
    }
}
