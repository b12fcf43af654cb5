/// What the pixel outputs' sender (on its own thread) needs of one period: the band levels,
/// the beat and onset found in it, and the `led` port's light. Frames are engine frames of the
/// sound's own timeline (the light is shown when that frame is heard); `led` is the port's value,
/// already delayed for the port's own path like the DMX channels read it.
public struct PixelTapFrame: BitwiseCopyable {
    public static var bandCount: Int { 16 }
    /// Engine frame of the period's last frame.
    public var frame: Int64
    public var bands: InlineArray<16, Float>
    /// The latest beat found in the period (its frame, -1: none) and its confidence.
    public var beatFrame: Int64
    public var beatStrength: Float
    /// The latest onset of the period (-1: none) and its strength.
    public var onsetFrame: Int64
    public var onsetStrength: Float
    public var led: Float

    public init(frame: Int64, bands: InlineArray<16, Float>, beatFrame: Int64 = -1, beatStrength: Float = 0,
                onsetFrame: Int64 = -1, onsetStrength: Float = 0, led: Float = 0) {
        self.frame = frame
        self.bands = bands
        self.beatFrame = beatFrame
        self.beatStrength = beatStrength
        self.onsetFrame = onsetFrame
        self.onsetStrength = onsetStrength
        self.led = led
    }
}

/// Process thread → the pixel sender: one frame per period; a full ring drops the newest.
public typealias PixelTapRing = SPSCRing<PixelTapFrame>
