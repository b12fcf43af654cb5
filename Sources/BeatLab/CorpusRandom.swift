/// SplitMix64: a small seeded generator owned by the corpus, so the corpus audio never changes
/// when the engine's noise generators are tuned.
struct CorpusRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A stable seed from a name (Swift's `hashValue` is randomised per process).
    init(name: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        self.init(seed: hash)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0) }

    /// Uniform in [-1, 1).
    mutating func bipolar() -> Float { Float(unit() * 2 - 1) }
}
