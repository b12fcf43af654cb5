import Foundation

/// A song for General MIDI instruments: bars of drums, bass and keys over a chord sequence and
/// a tempo that may change from beat to beat. Turned into a MIDI file whose tempo map gives the
/// exact beat times (the truth), with the notes played a few milliseconds off the grid.
struct SongScore {
    /// One bar of 4/4: positions in quarter notes from the downbeat.
    struct Bar {
        var drums: [(position: Double, key: UInt8, velocity: UInt8)] = []
        /// Bass notes: the chord's root (+ `interval` semitones), `length` quarters long.
        var bass: [(position: Double, length: Double, interval: Int)] = []
        /// Chords on the keys.
        var keys: [(position: Double, length: Double)] = []
        var chord = Chord.c
    }

    struct Chord {
        var root: UInt8
        var tones: [UInt8]
        static let c = Chord(root: 36, tones: [60, 64, 67])
        static let g = Chord(root: 43, tones: [59, 62, 67])
        static let am = Chord(root: 45, tones: [60, 64, 69])
        static let f = Chord(root: 41, tones: [60, 65, 69])
        static let dm = Chord(root: 38, tones: [62, 65, 69])
        static let e = Chord(root: 40, tones: [59, 64, 68])
    }

    var bars: [Bar]
    /// Tempo of each beat from the first bar's downbeat (constant within a beat).
    var tempo: (Int) -> Double
    var bassProgram: UInt8 = 33
    var keysProgram: UInt8 = 0
    /// Notes land up to this far off the grid, either way, at random.
    var jitterMs = 6.0

    static let ticksPerQuarter = 480
    /// One beat of silence before the music.
    static let leadInBeats = 1
    static let drumChannel: UInt8 = 9, bassChannel: UInt8 = 0, keysChannel: UInt8 = 1

    struct Rendering {
        var midi: Data
        /// Seconds: every quarter note while the music plays (through drum breaks too).
        var beats: [Double]
        /// Seconds: the first of the notes starting within 30 ms of each other.
        var onsets: [Double]
        var duration: Double
    }

    func rendering(seed: String) -> Rendering {
        var random = CorpusRandom(name: seed)
        let totalBeats = Self.leadInBeats + 4 * bars.count + 2
        // Integer microseconds per quarter, exactly as the file stores them; beat k starts at start[k].
        var microseconds: [Int] = [], start: [Double] = [0]
        for k in 0..<totalBeats {
            let us = Int((60e6 / tempo(max(0, k - Self.leadInBeats))).rounded())
            microseconds.append(us)
            start.append(start[k] + Double(us) / 1e6)
        }
        let q = Double(Self.ticksPerQuarter)
        func time(ofTick tick: Int) -> Double {
            let k = min(tick / Self.ticksPerQuarter, totalBeats - 1)
            return start[k] + Double(tick - k * Self.ticksPerQuarter) / q * Double(microseconds[k]) / 1e6
        }
        var file = MIDIFileWriter(ticksPerQuarter: Self.ticksPerQuarter)
        var previousTempo = -1
        for (k, us) in microseconds.enumerated() where us != previousTempo {
            file.add(.tempo(microsecondsPerQuarter: us), at: k * Self.ticksPerQuarter)
            previousTempo = us
        }
        file.add(.program(channel: Self.bassChannel, program: bassProgram), at: 0)
        file.add(.program(channel: Self.keysChannel, program: keysProgram), at: 0)
        var noteTimes: [Double] = []
        func note(_ channel: UInt8, _ key: UInt8, _ velocity: UInt8, at beat: Double, length: Double) {
            let tick = Int((beat * q).rounded())
            let msPerTick = Double(microseconds[min(tick / Self.ticksPerQuarter, totalBeats - 1)]) / 1000 / q
            let on = tick + Int((jitterMs * Double(random.bipolar()) / msPerTick).rounded())
            let off = max(on + 1, tick + Int((length * q).rounded()) - 10)
            let v = Double(velocity) * (1 + 0.1 * Double(random.bipolar()))
            file.add(.noteOn(channel: channel, key: key, velocity: UInt8(max(1, min(127, v.rounded())))), at: on)
            file.add(.noteOff(channel: channel, key: key), at: off)
            noteTimes.append(time(ofTick: on))
        }
        for (index, bar) in bars.enumerated() {
            let downbeat = Double(Self.leadInBeats + 4 * index)
            for d in bar.drums { note(Self.drumChannel, d.key, d.velocity, at: downbeat + d.position, length: 0.25) }
            for b in bar.bass {
                note(Self.bassChannel, UInt8(Int(bar.chord.root) + b.interval), 100, at: downbeat + b.position, length: b.length)
            }
            for k in bar.keys {
                for tone in bar.chord.tones { note(Self.keysChannel, tone, 80, at: downbeat + k.position, length: k.length) }
            }
        }
        let musicBeats = (Self.leadInBeats..<(Self.leadInBeats + 4 * bars.count)).map { start[$0] }
        var onsets: [Double] = []
        for t in noteTimes.sorted() where onsets.last.map({ t - $0 >= 0.030 }) ?? true { onsets.append(t) }
        let endTick = totalBeats * Self.ticksPerQuarter
        return Rendering(midi: file.data(endTick: endTick), beats: musicBeats, onsets: onsets, duration: time(ofTick: endTick))
    }
}
