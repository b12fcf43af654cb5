import EntrainCore

/// What the pixel sender reads: each period's analysis and led value queued by the process
/// thread, the engine frame playing now, how long the sound takes to be heard (JACK's playback
/// latency and our own limiter's), the led port's own latency, the user's light offset
/// (`/led/offset`), the thermal state, whether a panic is in force and whether the strobe is armed.
public struct PixelLightSource: Sendable {
    public var take: @Sendable (_ body: (PixelTapFrame) -> Void) -> Void
    public var now: @Sendable () -> Int64?
    public var soundLatency: @Sendable () -> Int
    public var portLatency: @Sendable () -> Int
    public var lightOffsetMilliseconds: @Sendable () -> Double
    public var sampleRate: @Sendable () -> Double
    /// 0 nominal … 3 critical (the LED's states; the same caps 1 / 0.5 / 0.1 / 0).
    public var thermalState: @Sendable () -> Int
    public var panicked: @Sendable () -> Bool
    public var armed: @Sendable () -> Bool

    public init(take: @escaping @Sendable (_ body: (PixelTapFrame) -> Void) -> Void, now: @escaping @Sendable () -> Int64?,
                soundLatency: @escaping @Sendable () -> Int, portLatency: @escaping @Sendable () -> Int,
                lightOffsetMilliseconds: @escaping @Sendable () -> Double, sampleRate: @escaping @Sendable () -> Double,
                thermalState: @escaping @Sendable () -> Int, panicked: @escaping @Sendable () -> Bool, armed: @escaping @Sendable () -> Bool) {
        self.take = take
        self.now = now
        self.soundLatency = soundLatency
        self.portLatency = portLatency
        self.lightOffsetMilliseconds = lightOffsetMilliseconds
        self.sampleRate = sampleRate
        self.thermalState = thermalState
        self.panicked = panicked
        self.armed = armed
    }

    static let thermalCaps: [Double] = [1, 0.5, 0.1, 0]
}
