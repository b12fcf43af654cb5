/// One hosted plugin of an insert chain as the process thread sees it: plain pointers made ready
/// off the thread (instances created, activated and connected to these buffers once), so a
/// period only copies, calls `run` and crossfades. A mono plugin on a stereo bus is two linked
/// instances (left, right) sharing one control array; a stereo plugin is one instance.
public struct InsertSlot {
    /// The plugin's own run function (LV2_Descriptor.run): handle, frames.
    public typealias Run = @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void

    public let first: UnsafeMutableRawPointer
    public let second: UnsafeMutableRawPointer?
    public let run: Run
    /// The plugin's audio inputs and outputs are connected here, `Engine.maximumChunk` frames
    /// each: separate from the bus's mix, so plugins that cannot process in place are safe.
    public let inLeft, inRight, outLeft, outRight: UnsafeMutablePointer<Float>
    /// Every port's control value by port index; the control ports are connected here.
    public let controls: UnsafeMutablePointer<Float>
    /// How much of the plugin's output is heard, 0 (bypassed: the dry signal) to 1, gliding
    /// linearly to `wetTarget` by `wetStep` a frame so adding, removing and bypassing never click.
    var wet: Float = 0
    var wetTarget: Float = 1
    var wetStep: Float = 1
    /// Atom output ports' buffers: before each run the host offers the whole buffer again (an
    /// atom:Chunk header of `atomCapacity` bytes), as the atom extension asks.
    var atomOuts: UnsafeMutablePointer<UnsafeMutableRawPointer>?
    var atomOutCount = 0
    var atomCapacity: UInt32 = 0
    var chunkType: UInt32 = 0
    /// Called after the runs with `hookContext` and `hookCount` (the LV2 worker's responses and
    /// end_run): plain C-callable code that must not allocate or lock either.
    public typealias Hook = @convention(c) (UnsafeMutableRawPointer?, Int) -> Void
    var hook: Hook?
    var hookContext: UnsafeMutableRawPointer?
    var hookCount = 0
    /// An instrument (`source`): its output is added to the bus (a mono one to both sides), and
    /// its MIDI input, an atom sequence, gets the chord's notes as they change.
    var source = false
    var monoOut = false
    public internal(set) var midiIn: UnsafeMutableRawPointer?
    var midiType: UInt32 = 0
    var playing = ChordNotes()

    /// Make it an instrument (before the engine has the slot): `midi` is its MIDI input's buffer.
    public mutating func playChords(into midi: UnsafeMutableRawPointer, midiType: UInt32, monoOut: Bool) {
        source = true
        midiIn = midi
        self.midiType = midiType
        self.monoOut = monoOut
    }

    /// Set the after-run hook (before the engine has the slot).
    public mutating func afterRun(_ hook: @escaping Hook, context: UnsafeMutableRawPointer, count: Int) {
        self.hook = hook
        hookContext = context
        hookCount = count
    }

    /// Hand over the atom output buffers (set before the engine has the slot).
    public mutating func offerAtomOutputs(_ buffers: UnsafeMutablePointer<UnsafeMutableRawPointer>, count: Int,
                                          capacity: UInt32, chunkType: UInt32) {
        atomOuts = buffers
        atomOutCount = count
        atomCapacity = capacity
        self.chunkType = chunkType
    }

    public init(first: UnsafeMutableRawPointer, second: UnsafeMutableRawPointer?, run: Run,
                buffers: UnsafeMutablePointer<Float>, controls: UnsafeMutablePointer<Float>, fadeFrames: Int) {
        self.first = first
        self.second = second
        self.run = run
        let n = Engine.maximumChunk
        inLeft = buffers
        inRight = buffers + n
        outLeft = buffers + 2 * n
        outRight = buffers + 3 * n
        self.controls = controls
        wetStep = 1 / Float(max(1, fadeFrames))
    }

    /// Frames of audio each slot's buffers must hold (four buffers: in and out, left and right).
    public static var bufferFrames: Int { 4 * Engine.maximumChunk }

    /// Glide towards heard (true) or bypassed over `frames`.
    public mutating func heard(_ on: Bool, frames: Int) {
        wetTarget = on ? 1 : 0
        wetStep = 1 / Float(max(1, frames))
    }

    /// Run the plugin on `frames` of `left`/`right` and mix its output in by `wet`, in place.
    /// Called at the edge of the process callback (the plugin is C the compiler cannot see), and
    /// allocates nothing: the buffers and the instances were made ready before.
    @inline(__always)
    mutating func process(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int, chord: ChordNotes, start: Int64) {
        if let midiIn { writeChordChange(midiIn, chord, at: Int64(min(max(0, chord.changedAt - start), Int64(frames - 1)))) }
        inLeft.update(from: left, count: frames)
        inRight.update(from: right, count: frames)
        if let atomOuts {
            for k in 0..<atomOutCount {
                atomOuts[k].storeBytes(of: atomCapacity, as: UInt32.self)
                atomOuts[k].storeBytes(of: chunkType, toByteOffset: 4, as: UInt32.self)
            }
        }
        run(first, UInt32(frames))
        if let second { run(second, UInt32(frames)) }
        if let hook { hook(hookContext, hookCount) }
        if source {
            // An instrument adds to the bus; bypass fades it to silence.
            let second = monoOut ? outLeft : outRight
            for i in 0..<frames {
                if wet < wetTarget { wet = min(wetTarget, wet + wetStep) } else if wet > wetTarget { wet = max(wetTarget, wet - wetStep) }
                left[i] += (outLeft[i].isFinite ? outLeft[i] : 0) * wet
                right[i] += (second[i].isFinite ? second[i] : 0) * wet
            }
            return
        }
        if wet == wetTarget {
            // Steady: all wet, or bypassed (the plugin still ran, so it is warm when it comes back).
            if wet == 1 {
                left.update(from: outLeft, count: frames)
                right.update(from: outRight, count: frames)
            }
            return
        }
        for i in 0..<frames {
            if wet < wetTarget { wet = min(wetTarget, wet + wetStep) } else if wet > wetTarget { wet = max(wetTarget, wet - wetStep) }
            let l = outLeft[i].isFinite ? outLeft[i] : 0, r = outRight[i].isFinite ? outRight[i] : 0
            left[i] += (l - left[i]) * wet
            right[i] += (r - right[i]) * wet
        }
    }

    /// The MIDI input's sequence for this run: empty, or, when the chord changed, note-offs for
    /// the notes sounding and note-ons for the new chord, on the change's frame `offset` in the run.
    @inline(__always)
    private mutating func writeChordChange(_ sequence: UnsafeMutableRawPointer, _ chord: ChordNotes, at offset: Int64) {
        var end = 16  // atom header (size, type) and sequence body (unit, pad)
        if playing.generation != chord.generation {
            for i in 0..<playing.count { Self.midiEvent(sequence, at: &end, frame: offset, type: midiType, 0x80, playing.notes[i], 0) }
            for i in 0..<chord.count { Self.midiEvent(sequence, at: &end, frame: offset, type: midiType, 0x90, chord.notes[i], 80) }
            playing = chord
        }
        sequence.storeBytes(of: UInt32(end - 8), toByteOffset: 0, as: UInt32.self)
        sequence.storeBytes(of: UInt32(0), toByteOffset: 8, as: UInt32.self)
    }

    /// One three-byte MIDI event on `frame` (an atom event: frames, size, type, bytes, padded to 8).
    @inline(__always)
    private static func midiEvent(_ sequence: UnsafeMutableRawPointer, at end: inout Int, frame: Int64, type: UInt32, _ status: UInt8, _ note: UInt8, _ velocity: UInt8) {
        sequence.storeBytes(of: frame, toByteOffset: end, as: Int64.self)
        sequence.storeBytes(of: UInt32(3), toByteOffset: end + 8, as: UInt32.self)
        sequence.storeBytes(of: type, toByteOffset: end + 12, as: UInt32.self)
        sequence.storeBytes(of: status, toByteOffset: end + 16, as: UInt8.self)
        sequence.storeBytes(of: note, toByteOffset: end + 17, as: UInt8.self)
        sequence.storeBytes(of: velocity, toByteOffset: end + 18, as: UInt8.self)
        end += 24
    }
}
