/// Seeded mutations of real files: flipped bits, inserted structure characters, deleted or
/// repeated runs, splices of two files, numbers swapped for extreme ones, truncation.
public struct Mutator {
    private var state: UInt64
    let corpus: [[UInt8]]
    static let tokens: [[UInt8]] = ["{", "}", "[", "]", "\"", "\\", ":", ",", "<", ">", "/>", "</", "&", "\n", "-",
                                    "1e308", "-1e308", "NaN", "99999999999999999999", "0x", "\u{0}", "\u{FFFF}", "💥",
                                    "null", "true", "[[[[[[[[", "{\"a\":{\"a\":"].map { Array($0.utf8) }

    public init(seed: UInt64, corpus: [[UInt8]]) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        self.corpus = corpus
    }

    mutating func random(_ n: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return n <= 0 ? 0 : Int(state % UInt64(n))
    }

    public mutating func next() -> [UInt8] {
        var x = corpus[random(corpus.count)]
        for _ in 0...random(4) {
            let at = random(x.count + 1)
            switch random(7) {
            case 0 where !x.isEmpty: x[min(at, x.count - 1)] ^= UInt8(1 << random(8))
            case 1: x.insert(contentsOf: Self.tokens[random(Self.tokens.count)], at: at)
            case 2 where at < x.count: x.removeSubrange(at..<min(x.count, at + 1 + random(64)))
            case 3 where at < x.count:
                let run = x[at..<min(x.count, at + 1 + random(256))]
                x.insert(contentsOf: Array(run), at: at)
            case 4:
                let other = corpus[random(corpus.count)]
                let from = random(other.count)
                x = Array(x[..<at]) + Array(other[from...])
            case 5:
                if let digit = x.indices.dropFirst(at).first(where: { x[$0] >= 48 && x[$0] <= 57 }) {
                    x.replaceSubrange(digit...digit, with: Self.tokens[15 + random(5)])
                }
            default: x = Array(x.prefix(at))
            }
        }
        return x
    }
}
