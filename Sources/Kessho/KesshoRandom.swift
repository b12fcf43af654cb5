import EntrainDSP

/// xmur3 string hash: a generator of uint32 values seeded by a string's UTF-16 code units,
/// bit-exact with the web's rng.ts.
public struct KesshoXmur3: Sendable {
    private var h: UInt32

    public init(_ string: String) {
        let units = Array(string.utf16)  // JS strings are UTF-16: length and charCodeAt work on code units
        var h = 1779033703 ^ UInt32(truncatingIfNeeded: units.count)
        for c in units {
            h = (h ^ UInt32(c)) &* 3432918353
            h = (h << 13) | (h >> 19)
        }
        self.h = h
    }

    public mutating func next() -> UInt32 {
        h = (h ^ (h >> 16)) &* 2246822507
        h = (h ^ (h >> 13)) &* 3266489909
        h ^= h >> 16
        return h
    }

    /// The first output, which is all the web ever uses.
    public static func hash(_ string: String) -> UInt32 {
        var g = KesshoXmur3(string)
        return g.next()
    }
}

/// mulberry32 as the web's createRng uses it; the generator itself is `EntrainDSP.Mulberry32`.
public typealias KesshoMulberry32 = Mulberry32

/// createRng(s) = mulberry32(first xmur3(s) output), with the web's helpers.
public struct KesshoRandom: Sendable {
    public private(set) var generator: Mulberry32

    public init(seed: String) { generator = KesshoMulberry32(seed: KesshoXmur3.hash(seed)) }

    public mutating func next() -> Double { generator.next() }

    /// Integer in [min, max] inclusive.
    public mutating func int(_ min: Int, _ max: Int) -> Int {
        Int((next() * Double(max - min + 1)).rounded(.down)) + min
    }

    public mutating func float(_ min: Double, _ max: Double) -> Double { min + next() * (max - min) }

    public mutating func pick<T>(_ items: [T]) -> T { items[Int((next() * Double(items.count)).rounded(.down))] }

    /// Fisher–Yates on a copy, from the last index down to 1 (n − 1 draws).
    public mutating func shuffle<T>(_ items: [T]) -> [T] {
        var a = items
        var i = a.count - 1
        while i > 0 {
            let j = Int((next() * Double(i + 1)).rounded(.down))
            a.swapAt(i, j)
            i -= 1
        }
        return a
    }

    /// Roulette: one draw × total, subtract weights in order, first index whose remainder ≤ 0, else the last.
    public mutating func weightedIndex(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var r = next() * total
        for (i, w) in weights.enumerated() {
            r -= w
            if r <= 0 { return i }
        }
        return weights.count - 1
    }
}
