/// One grain of the pool: where it reads, how fast, how long, and its pan gains.
@usableFromInline
struct Grain {
    @usableFromInline var active = false
    /// Buffer position of the first sample (may be fractional only through `rate`).
    @usableFromInline var start = 0.0
    /// Samples played so far.
    @usableFromInline var elapsed = 0
    @usableFromInline var length = 1
    @usableFromInline var rate = 1.0
    @usableFromInline var gainL: Float = 0
    @usableFromInline var gainR: Float = 0

    @usableFromInline init() {}
}
