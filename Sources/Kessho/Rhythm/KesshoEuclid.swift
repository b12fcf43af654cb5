/// The web's two Euclidean pattern builders. The lead (and pad) lanes group hits and rests and
/// rotate left; the drum lanes build the classic recursive Bjorklund and rotate right. They give
/// different patterns for the same steps and hits, and both are kept so presets play as written.
public enum KesshoEuclid {
    /// Lead lanes: start with `hits` groups [1] and `steps − hits` groups [0]; while more than one
    /// remainder group is left, append remainder i to group i and let the longer list's leftover
    /// become the remainder. Rotation r reads from r steps later (a left rotation).
    public static func leadPattern(steps: Int, hits: Int, rotation: Int) -> [Bool] {
        guard steps > 0 else { return [] }
        if hits >= steps { return Array(repeating: true, count: steps) }
        if hits <= 0 { return Array(repeating: false, count: steps) }
        var groups: [[Bool]] = Array(repeating: [true], count: hits)
        var remainder: [[Bool]] = Array(repeating: [false], count: steps - hits)
        while remainder.count > 1 {
            let paired = min(groups.count, remainder.count)
            var joined: [[Bool]] = []
            for i in 0..<paired { joined.append(groups[i] + remainder[i]) }
            let leftover = groups.count > paired ? Array(groups[paired...]) : Array(remainder[paired...])
            groups = joined
            remainder = leftover
        }
        let flat = (groups + remainder).flatMap { $0 }
        let r = ((rotation % steps) + steps) % steps
        return (0..<steps).map { flat[($0 + r) % steps] }
    }

    /// Drum lanes: the classic recursive construction from counts and remainders; rotation r
    /// moves step i to i + r (a right rotation). Steps at least 1, hits clamped to 0…steps.
    public static func drumPattern(steps rawSteps: Int, hits rawHits: Int, rotation: Int) -> [Bool] {
        let steps = max(1, rawSteps), hits = min(max(0, rawHits), steps)
        var counts: [Int] = [], remainders: [Int] = [hits]
        var divisor = steps - hits
        var level = 0
        if hits > 0 {
            repeat {
                counts.append(divisor / remainders[level])
                remainders.append(divisor % remainders[level])
                divisor = remainders[level]
                level += 1
            } while remainders[level] > 1
        }
        counts.append(divisor)
        var pattern: [Bool] = []
        func build(_ l: Int) {
            if l == -1 { pattern.append(false); return }
            if l == -2 { pattern.append(true); return }
            for _ in 0..<counts[l] { build(l - 1) }
            if remainders[l] != 0 { build(l - 2) }
        }
        if hits == 0 { return Array(repeating: false, count: steps) }
        build(level)
        pattern = Array(pattern.prefix(steps))
        while pattern.count < steps { pattern.append(false) }
        var out = Array(repeating: false, count: steps)
        let r = ((rotation % steps) + steps) % steps
        for i in 0..<steps { out[(i + r) % steps] = pattern[i] }
        return out
    }

    /// A lane preset: steps, hits and its own rotation.
    public struct Preset: Sendable, Equatable {
        public let steps: Int, hits: Int, rotation: Int
        public init(_ steps: Int, _ hits: Int, _ rotation: Int) { (self.steps, self.hits, self.rotation) = (steps, hits, rotation) }
    }

    /// The lane presets (gamelan, west African, polyrhythm, Reich), shared by both sequencers.
    public static let leadPresets: [String: Preset] = [
        "lancaran": .init(16, 4, 0), "ketawang": .init(16, 2, 0), "ladrang": .init(32, 8, 0),
        "gangsaran": .init(8, 4, 0), "kotekan": .init(8, 3, 1), "kotekan2": .init(8, 3, 4),
        "srepegan": .init(16, 6, 2), "sampak": .init(8, 5, 0), "ayak": .init(16, 3, 4), "bonang": .init(12, 5, 2),
        "clapping": .init(12, 8, 0), "clappingB": .init(12, 8, 5), "poly3v4": .init(12, 3, 0),
        "poly4v3": .init(12, 4, 0), "poly5v4": .init(20, 5, 0), "additive7": .init(7, 4, 0),
        "additive11": .init(11, 5, 0), "additive13": .init(13, 5, 0), "reich18": .init(12, 7, 3),
        "drumming": .init(8, 6, 1), "sparse": .init(16, 1, 0), "dense": .init(8, 7, 0), "longSparse": .init(32, 3, 0),
    ]

    /// The drum lanes' table: the lead's plus Afro-Cuban and west African bell patterns.
    public static let drumPresets: [String: Preset] = leadPresets.merging([
        "tresillo": .init(8, 3, 0), "cinquillo": .init(8, 5, 0), "rumba": .init(16, 5, 0), "bossa": .init(16, 5, 3),
        "son": .init(16, 7, 0), "shiko": .init(16, 5, 0), "soukous": .init(12, 7, 0), "gahu": .init(16, 7, 0),
        "bembe": .init(12, 7, 0),
    ]) { a, _ in a }

    /// A lead lane's steps/hits/rotation: `custom` takes the lane's own; a preset adds the lane's
    /// rotation to its own; an unknown id is lancaran, as on the web.
    public static func leadLane(preset: String, steps: Int, hits: Int, rotation: Int) -> Preset {
        if preset == "custom" { return Preset(steps, hits, rotation) }
        let p = leadPresets[preset] ?? leadPresets["lancaran"]!
        return Preset(p.steps, p.hits, (p.rotation + rotation) % p.steps)
    }

    /// A drum lane's: custom or unknown ids take the lane's sliders.
    public static func drumLane(preset: String, steps: Int, hits: Int, rotation: Int) -> Preset {
        guard let p = drumPresets[preset] else { return Preset(steps, hits, rotation) }
        return Preset(p.steps, p.hits, (p.rotation + rotation) % p.steps)
    }
}
