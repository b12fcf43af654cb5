/// Mono pink noise exactly as the granulator worklet makes it: Paul Kellet's 7-pole filter on
/// uniform white noise, output ×0.2. (StereoNoise scales differently; the buffer's level must match the web.)
@usableFromInline
struct KelletPink {
    @usableFromInline var random: RandomSource
    @usableFromInline var filter = KelletFilter()

    @usableFromInline init(seed: UInt64) { random = RandomSource(seed: seed) }

    @inlinable @inline(__always)
    mutating func next() -> Float {
        filter.step(SIMD2(random.nextBipolar(), 0)).x * 0.2
    }
}
