import EntrainCore

/// What a DMX sender reads the light from: the values each period queued by the process
/// thread, the engine frame playing now, the light port's own playback latency, the sample
/// rate, whether a panic is in force and whether the strobe is armed. The JACK client provides
/// them when live.
public struct DMXLightSource: Sendable {
    public var take: @Sendable (_ body: (LightTapFrame) -> Void) -> Void
    public var now: @Sendable () -> Int64?
    public var portLatency: @Sendable () -> Int
    public var sampleRate: @Sendable () -> Double
    public var panicked: @Sendable () -> Bool
    public var armed: @Sendable () -> Bool

    public init(take: @escaping @Sendable (_ body: (LightTapFrame) -> Void) -> Void, now: @escaping @Sendable () -> Int64?,
                portLatency: @escaping @Sendable () -> Int, sampleRate: @escaping @Sendable () -> Double,
                panicked: @escaping @Sendable () -> Bool, armed: @escaping @Sendable () -> Bool) {
        self.take = take
        self.now = now
        self.portLatency = portLatency
        self.sampleRate = sampleRate
        self.panicked = panicked
        self.armed = armed
    }
}

/// The periods a sender has seen, newest last, and the one to show at a frame.
struct LightHistory {
    private var frames: [LightTapFrame] = []
    private var start = 0
    static let capacity = 4096

    mutating func append(_ frame: LightTapFrame) {
        if frames.count < Self.capacity { frames.append(frame); return }
        frames[start] = frame
        start = (start + 1) % Self.capacity
    }

    var newest: LightTapFrame? { frames.isEmpty ? nil : frames[(start + frames.count - 1) % frames.count] }

    /// The newest period whose last frame is at or before `frame` (the oldest kept when all
    /// are later, the newest when `frame` is ahead of what is rendered).
    func value(at frame: Int64) -> LightTapFrame? {
        guard !frames.isEmpty else { return nil }
        for back in 0..<frames.count {
            let candidate = frames[(start + frames.count - 1 - back) % frames.count]
            if candidate.frame <= frame { return candidate }
        }
        return frames[start % frames.count]
    }
}
