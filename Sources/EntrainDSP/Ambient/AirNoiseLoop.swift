/// The pad's "air": a 2 s stereo white-noise buffer played as a loop, as Kessho's pad does. The last
/// 50 ms are blended toward the first 50 ms so the loop seam does not click:
/// tail[k] = tail[k]·(1 − k/F) + head[k]·k/F. Filled once in `init` from a seeded source.
public struct AirNoiseLoop {
    public let length: Int
    @usableFromInline let left: UnsafeMutablePointer<Float>
    @usableFromInline let right: UnsafeMutablePointer<Float>
    @usableFromInline var position = 0

    public init(sampleRate: Double, seed: UInt64, seconds: Double = 2, seamSeconds: Double = 0.05) {
        length = max(2, Int(seconds * sampleRate))
        left = .allocate(capacity: length)
        right = .allocate(capacity: length)
        var random = RandomSource(seed: seed)
        // Independent channels, uniform in [-1, 1) like Math.random()·2 − 1.
        for i in 0..<length { left[i] = random.nextBipolar(); right[i] = random.nextBipolar() }
        let seam = min(length / 2, Int(seamSeconds * sampleRate))
        for k in 0..<seam {
            let t = Float(k) / Float(seam), i = length - seam + k
            left[i] = left[i] * (1 - t) + left[k] * t
            right[i] = right[i] * (1 - t) + right[k] * t
        }
    }

    public func deallocate() { left.deallocate(); right.deallocate() }

    @inlinable @inline(__always)
    public mutating func next() -> (left: Float, right: Float) {
        let out = (left[position], right[position])
        position = position + 1 == length ? 0 : position + 1
        return out
    }
}
