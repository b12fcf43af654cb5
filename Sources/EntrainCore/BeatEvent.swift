/// Something the beat analysis found in `beat_in`, stamped with the engine frame at which it
/// happened in the input (onsets: back-dated to the attack; beats: the predicted beat frame).
/// Plain value type: it leaves the process thread through a ring and is read in-engine by the
/// LED, haptic and ambient plugins in the same period.
public struct BeatEvent: Sendable, BitwiseCopyable, Equatable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable { case onset, beat }

    public var kind: Kind
    /// Engine frame of the event in the input's timeline.
    public var frame: Int64
    /// Engine frame just past the period in which the engine published it (for latency reports).
    public var publishedFrame: Int64
    /// Onsets: detection-function strength, 0...1. Beats: tracker confidence, 0...1.
    public var strength: Float
    /// Beats: the beat count since the tracker locked (1, 2, 3, …). Onsets: 0.
    public var count: Int32
    /// Beats: tempo in BPM and the frames to the predicted next beat. Onsets: 0.
    public var bpm: Float
    public var framesToNext: Int32

    public init(kind: Kind, frame: Int64, publishedFrame: Int64 = 0, strength: Float, count: Int32 = 0,
                bpm: Float = 0, framesToNext: Int32 = 0) {
        self.kind = kind
        self.frame = frame
        self.publishedFrame = publishedFrame
        self.strength = strength
        self.count = count
        self.bpm = bpm
        self.framesToNext = framesToNext
    }
}

/// Engine → control: onsets and beats as they are found.
public typealias BeatEventRing = SPSCRing<BeatEvent>
