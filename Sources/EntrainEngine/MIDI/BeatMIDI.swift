import EntrainCore

/// One MIDI message for a period's output: its frame offset and up to three bytes.
public struct MIDIBytes: BitwiseCopyable {
    public var offset: Int32
    public var size: UInt8
    public var b0: UInt8, b1: UInt8, b2: UInt8
}

/// What the MIDI output sends, chosen at start.
public struct BeatMIDISettings: Sendable, Equatable {
    /// 0…15 (MIDI channel 1…16); drum machines listen on channel 10 (9 here).
    public var channel = 9
    /// Notes per beat and per onset, 0…127; nil: none.
    public var beatNote: Int? = 36
    public var onsetNote: Int? = 38
    /// How long each note sounds before its note-off, seconds.
    public var noteLength = 0.05
    public init() {}
}

/// MIDI clock (24 per quarter note) locked to the beats found on beat_in, with start, stop and
/// continue, and a note on each beat and each onset, all on the exact frames of their events.
///
/// Each beat starts a new quarter: its 24 clocks are spaced by the tracker's frames to the next
/// predicted beat, the first on the beat's own frame. A beat that comes before the 24th clock
/// (the tracker moved its phase, or an xrun cost beat_in a period) sends the old quarter's
/// remaining clocks on its own frame first: a receiver counts clocks to know where it is in the
/// bar, so a clock is hurried, never lost. Two quarters without a beat
/// stop the clock. A beat counted 1 (the tracker locked afresh) sends Start, any other beat after
/// a stop Continue. A device connected while the clock runs missed the Start: at the next beat it
/// gets Song Position (the beats since Start, in sixteenths) and Continue, just before that beat's
/// first clock, as hardware clock sources do. Plain state, no allocation: it runs on the process thread.
public struct BeatMIDI {
    public var settings: BeatMIDISettings
    let noteFrames: Int64
    var origin = 0.0
    var interval = 0.0
    var nextTick = 24
    var lastBeat: Int64 = 0
    var running = false
    /// Beats since the Start, and whether a device joined since the last beat.
    var beatsSinceStart = 0
    var joined = false
    var offFrames = InlineArray<32, Int64>(repeating: 0)
    var offNotes = InlineArray<32, UInt8>(repeating: 0)
    var offCount = 0
    /// This period's messages, in frame order after `finish`.
    public var out = InlineArray<256, MIDIBytes>(repeating: MIDIBytes(offset: 0, size: 0, b0: 0, b1: 0, b2: 0))
    public var outCount = 0
    var start: Int64 = 0
    var end: Int64 = 0

    public static let clock: UInt8 = 0xF8, startByte: UInt8 = 0xFA, continueByte: UInt8 = 0xFB, stopByte: UInt8 = 0xFC
    public static let songPosition: UInt8 = 0xF2

    public init(settings: BeatMIDISettings, sampleRate: Double) {
        self.settings = settings
        noteFrames = max(1, Int64(settings.noteLength * sampleRate))
    }

    /// A new period of `frames` frames from engine frame `start`.
    public mutating func begin(start: Int64, frames: Int) {
        self.start = start
        end = start + Int64(frames)
        outCount = 0
    }

    /// One of this period's events from the beat analysis (beats in frame order).
    public mutating func take(_ event: BeatEvent) {
        let frame = max(start, min(end - 1, event.frame))
        switch event.kind {
        case .onset:
            if let note = settings.onsetNote { noteOn(note, velocity: event.strength, at: frame) }
        case .beat:
            ticks(before: frame)
            if running, event.count > 1 {
                while nextTick < 24 { emit(Self.clock, at: frame); nextTick += 1 }
            }
            if !running {
                let starting = event.count <= 1
                emit(starting ? Self.startByte : Self.continueByte, at: frame)
                beatsSinceStart = starting ? 0 : beatsSinceStart + 1
                running = true
            } else {
                beatsSinceStart += 1
                if joined {
                    let sixteenths = (beatsSinceStart * 4) & 0x3FFF
                    emit3(Self.songPosition, UInt8(sixteenths & 0x7F), UInt8(sixteenths >> 7), at: frame)
                    emit(Self.continueByte, at: frame)
                }
            }
            joined = false
            origin = Double(frame)
            interval = Double(max(event.framesToNext, 24)) / 24
            nextTick = 0
            lastBeat = frame
            if let note = settings.beatNote { noteOn(note, velocity: event.strength, at: frame) }
        }
    }

    /// A device was connected to the output: it hears where the clock is at the next beat.
    public mutating func listenerJoined() { joined = true }

    /// The clock's source stopped (JACK transport): Stop now, no more clocks.
    public mutating func stop(at frame: Int64) {
        guard running else { return }
        emit(Self.stopByte, at: max(start, min(end - 1, frame)))
        running = false
        nextTick = 24
    }

    /// The client is closing: a Stop if the clock runs and every sounding note's note-off, at the
    /// period's first frame, so nothing downstream is left running or hanging. Then `finish`.
    public mutating func closeDown() {
        stop(at: start)
        for k in 0..<offCount { emit3(0x80 | UInt8(settings.channel & 15), offNotes[k], 0, at: start) }
        offCount = 0
    }

    /// After the period's events: the rest of its clocks, note-offs and a stop; then every
    /// message in frame order.
    public mutating func finish() {
        ticks(before: end)
        if running && Double(end) > Double(lastBeat) + 48 * interval {
            emit(Self.stopByte, at: max(start, min(end - 1, lastBeat + Int64(48 * interval))))
            running = false
            nextTick = 24
        }
        var k = 0
        while k < offCount {
            if offFrames[k] < end {
                emit3(0x80 | UInt8(settings.channel & 15), offNotes[k], 0, at: max(start, offFrames[k]))
                offCount -= 1
                offFrames[k] = offFrames[offCount]
                offNotes[k] = offNotes[offCount]
            } else {
                k += 1
            }
        }
        // Insertion sort by offset (few messages; JACK wants them in time order), stable.
        var i = 1
        while i < outCount {
            let m = out[i]
            var j = i - 1
            while j >= 0 && out[j].offset > m.offset {
                out[j + 1] = out[j]
                j -= 1
            }
            out[j + 1] = m
            i += 1
        }
    }

    mutating func ticks(before frame: Int64) {
        while nextTick < 24 {
            let at = Int64((origin + Double(nextTick) * interval).rounded())
            guard at < frame else { return }
            if at >= start { emit(Self.clock, at: at) }
            nextTick += 1
        }
    }

    mutating func noteOn(_ note: Int, velocity strength: Float, at frame: Int64) {
        let velocity = UInt8(max(1, min(127, (1 + strength * 126).rounded())))
        emit3(0x90 | UInt8(settings.channel & 15), UInt8(note & 127), velocity, at: frame)
        guard offCount < 32 else { return }
        offFrames[offCount] = frame + noteFrames
        offNotes[offCount] = UInt8(note & 127)
        offCount += 1
    }

    mutating func emit(_ byte: UInt8, at frame: Int64) {
        guard outCount < 256 else { return }
        out[outCount] = MIDIBytes(offset: Int32(frame - start), size: 1, b0: byte, b1: 0, b2: 0)
        outCount += 1
    }

    mutating func emit3(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, at frame: Int64) {
        guard outCount < 256 else { return }
        out[outCount] = MIDIBytes(offset: Int32(frame - start), size: 3, b0: b0, b1: b1, b2: b2)
        outCount += 1
    }
}
