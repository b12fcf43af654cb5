import Synchronization

/// Rendered patterns (intensity and sharpness at 1 kHz, from AHAP files) waiting for the engine.
/// The control side writes a slot the engine is not reading, then sends a `.pattern` command
/// naming it; the engine switches on the command's exact frame. Three slots: one playing, one
/// whose start is queued, one free to write.
public struct PatternSlots: ~Copyable {
    public static var count: Int { 3 }
    /// Two minutes at 1 kHz per slot.
    public static var capacity: Int { 120_000 }
    public static var ticksPerSecond: Double { 1000 }

    let intensity: UnsafeMutablePointer<Float>
    let sharpness: UnsafeMutablePointer<Float>
    /// Pattern commands the engine has applied (the control side counts what it sent).
    let applied = Atomic<Int>(0)
    /// The slot playing (-1: none), as the engine last published it.
    let playing = Atomic<Int>(-1)

    public init() {
        intensity = .allocate(capacity: Self.count * Self.capacity)
        intensity.initialize(repeating: 0, count: Self.count * Self.capacity)
        sharpness = .allocate(capacity: Self.count * Self.capacity)
        sharpness.initialize(repeating: 0.5, count: Self.count * Self.capacity)
    }

    deinit {
        intensity.deallocate()
        sharpness.deallocate()
    }
}

/// What a plugin needs to read the playing pattern frame by frame (a plain value).
struct PatternPlayback {
    var intensity: UnsafeMutablePointer<Float>?
    var sharpness: UnsafeMutablePointer<Float>?
    var start: Int64 = 0
    var ticks = 0
    var framesPerTick = 48.0

    /// (intensity, sharpness) at engine `frame`, nil when nothing plays there.
    @inline(__always)
    func value(at frame: Int64) -> (intensity: Float, sharpness: Float)? {
        guard let intensity, let sharpness, frame >= start else { return nil }
        let tick = Int(Double(frame - start) / framesPerTick)
        guard tick < ticks else { return nil }
        return (intensity[tick], sharpness[tick])
    }
}
