/// One MIDI message from the midi_in port (three bytes at most; running status as JACK hands
/// it, complete), stamped with its engine frame.
public struct MIDIInEvent: BitwiseCopyable {
    public var frame: Int64
    public var size: UInt8
    public var b0: UInt8, b1: UInt8, b2: UInt8

    public init(frame: Int64, size: UInt8, b0: UInt8, b1: UInt8, b2: UInt8) {
        self.frame = frame
        self.size = size
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
    }
}

/// Process thread → control side: what came in on midi_in.
public typealias MIDIInRing = SPSCRing<MIDIInEvent>
