/// The Kessho pad filter's random walk: every 100 ms a velocity takes a random kick,
/// is damped and clamped, and moves a position m in 0…1 (no bounce at the ends); the cutoff is
/// m interpolated logarithmically between the two limits, and Q gets a boost below 200 Hz.
/// The web draws from unseeded Math.random; here the draws come from a seeded source.
public struct FilterWalk {
    public private(set) var position = 0.5
    var velocity = 0.0
    var random: RandomSource
    let framesPerStep: Int
    var countdown = 0

    public init(sampleRate: Double, seed: UInt64) {
        random = RandomSource(seed: seed)
        framesPerStep = max(1, Int(sampleRate * 0.1))
    }

    /// Advance one frame; true on the frames where the walk stepped (the filters then update).
    @inline(__always)
    public mutating func tick(speed: Double) -> Bool {
        countdown -= 1
        guard countdown <= 0 else { return false }
        countdown = framesPerStep
        let step = speed > 0 ? 0.02 / speed : 0
        let u = Double(random.nextUInt32()) / 4_294_967_296
        velocity += (u - 0.5) * 2 * step
        velocity *= 0.92
        velocity = min(max(velocity, -4 * step), 4 * step)
        position = min(max(position + velocity, 0), 1)
        return true
    }

    /// The cutoff at the current position, between `low` and `high` (Hz) on a log scale.
    public func cutoff(low: Double, high: Double) -> Double {
        let a = FastMath.log2(max(low, 1)), b = FastMath.log2(max(high, 1))
        return FastMath.exp2(a + (b - a) * position)
    }

    /// Q with the low-cutoff boost, capped at 15.
    public static func q(_ filterQ: Double, cutoff: Double) -> Double {
        let boost = cutoff < 200 ? 4 * (200 - cutoff) / 200 : 0
        return min(filterQ + boost, 15)
    }
}
