/// mulberry32, the generator behind the Kessho web engine's seeded stream (uint32 seed → doubles
/// in [0, 1)), bit-exact with the web. It lives here, not in the Kessho module, because the
/// ambient engine replays the stream on the process thread (the granulator's per-phrase draws).
///
/// The web keeps its counter as an unbounded JS double (no `|0`), so we do too: after 2^53 the
/// addition rounds exactly as JS does instead of wrapping like a UInt32 counter. ToInt32 of the
/// integer-valued double goes through UInt64 (exact below 2^64), which avoids fmod on the
/// process thread.
@frozen
public struct Mulberry32: Sendable, BitwiseCopyable {
    /// The counter; `Mulberry32(counter:)` resumes a stream from it.
    public var counter: Double

    @inlinable public init(seed: UInt32) { counter = Double(seed) }

    @inlinable public init(counter: Double) { self.counter = counter }

    @inlinable @inline(__always)
    public mutating func next() -> Double {
        counter += 0x6D2B79F5
        var t = UInt32(truncatingIfNeeded: UInt64(counter))
        t = (t ^ (t >> 15)) &* (t | 1)
        t ^= t &+ ((t ^ (t >> 7)) &* (t | 61))
        return Double(t ^ (t >> 14)) / 4294967296
    }
}
