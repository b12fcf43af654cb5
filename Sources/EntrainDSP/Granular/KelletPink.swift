/// Mono pink noise exactly as the granulator worklet makes it: Paul Kellet's 7-pole filter on
/// uniform white noise, output ×0.2. (StereoNoise scales differently; the buffer's level must match the web.)
@usableFromInline
struct KelletPink {
    @usableFromInline var random: RandomSource
    @usableFromInline var b0: Float = 0, b1: Float = 0, b2: Float = 0, b3: Float = 0
    @usableFromInline var b4: Float = 0, b5: Float = 0, b6: Float = 0

    @usableFromInline init(seed: UInt64) { random = RandomSource(seed: seed) }

    @inlinable @inline(__always)
    mutating func next() -> Float {
        let w = random.nextBipolar()
        b0 = 0.99886 * b0 + w * 0.0555179
        b1 = 0.99332 * b1 + w * 0.0750759
        b2 = 0.96900 * b2 + w * 0.1538520
        b3 = 0.86650 * b3 + w * 0.3104856
        b4 = 0.55000 * b4 + w * 0.5329522
        b5 = -0.7616 * b5 - w * 0.0168980
        let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362
        b6 = w * 0.115926
        return pink * 0.2
    }
}
