/// The web's lead melody for one phrase: at each call (play, then every boundary) a list of
/// notes for the next 16 s, from the engine stream: random sparse notes, or the four Euclidean
/// lanes. Each note is picked (probability, pitch, velocity) when it fires, from the scale then
/// in force.
public enum KesshoMelody {
    public enum Source: Equatable, Sendable {
        case lead1, lead2
        /// Pad voice 0…5 (the lanes' `synth1`…`synth6`).
        case pad(Int)

        init(_ name: String) {
            switch name {
            case "lead2": self = .lead2
            case _ where name.hasPrefix("synth"):
                let n = Int(name.dropFirst(5)) ?? 1
                self = .pad(min(max(n, 1), 6) - 1)
            default: self = .lead1
            }
        }

        var isLead: Bool { if case .pad = self { false } else { true } }
    }

    /// A scheduled note: seconds after the call, its lane's range, level, keep-probability and
    /// destination.
    public struct Note: Equatable, Sendable {
        public var time: Double
        public var noteMin: Int, noteMax: Int
        public var level: Double, probability: Double
        public var source: Source
    }

    /// Whether the melody runs: the lead is on, or a Euclid lane plays the pad.
    public static func runs(_ s: KesshoState) -> Bool {
        if s.bool("leadEnabled") == true { return true }
        guard s.bool("leadEuclideanMasterEnabled") == true else { return false }
        return lanes(s).contains { !$0.source.isLead }
    }

    struct Lane {
        var pattern: [Bool]
        var noteMin: Int, noteMax: Int
        var level: Double, probability: Double
        var source: Source
    }

    static func lanes(_ s: KesshoState) -> [Lane] {
        (1...4).compactMap { n in
            let key = { (field: String) in "leadEuclid\(n)\(field)" }
            guard s.bool(key("Enabled")) == true else { return nil }
            func int(_ f: String, _ d: Int) -> Int { Int(saturating: s.number(key(f)) ?? Double(d)) }
            let p = KesshoEuclid.leadLane(preset: s.string(key("Preset")) ?? "lancaran", steps: max(1, int("Steps", 16)),
                                          hits: int("Hits", 4), rotation: int("Rotation", 0))
            return Lane(pattern: KesshoEuclid.leadPattern(steps: p.steps, hits: p.hits, rotation: p.rotation),
                        noteMin: int("NoteMin", 64), noteMax: int("NoteMax", 76), level: s.number(key("Level")) ?? 0.8,
                        probability: s.number(key("Probability")) ?? 1, source: Source(s.string(key("Source")) ?? "lead"))
        }
    }

    /// The phrase's notes in time order, drawing from `draw` as the web does.
    public static func phrase(_ s: KesshoState, draw: () -> Double) -> [Note] {
        var notes: [Note] = []
        let leadOn = s.bool("leadEnabled") == true
        if s.bool("leadEuclideanMasterEnabled") == true {
            let tempo = max(s.number("leadEuclideanTempo") ?? 1, 0.25)
            let period = KesshoPhrase.length / tempo
            let enabled = lanes(s)
            for lane in enabled {
                let step = period / Double(lane.pattern.count)
                for c in 0..<Int(tempo.rounded(.up)) {
                    for i in lane.pattern.indices where lane.pattern[i] {
                        let time = Double(c) * period + Double(i) * step
                        if time < KesshoPhrase.length {
                            notes.append(Note(time: time, noteMin: lane.noteMin, noteMax: lane.noteMax, level: lane.level,
                                              probability: lane.probability, source: lane.source))
                        }
                    }
                }
            }
            if leadOn && !enabled.contains(where: { $0.source.isLead }) { notes += random(s, draw: draw) }
        } else {
            notes = random(s, draw: draw)
        }
        // Stable: equal times keep lane order.
        return notes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    static func random(_ s: KesshoState, draw: () -> Double) -> [Note] {
        let density = s.number("lead1Density") ?? 0.5
        let count = max(1, Int(saturating: (3 * density + 2 * draw() + 0.5).rounded(.down)))
        let low = 64 + 12 * Int(saturating: s.number("lead1Octave") ?? 1)
        let high = low + 12 * Int(saturating: s.number("lead1OctaveRange") ?? 2)
        return (0..<count).map { _ in
            Note(time: draw() * KesshoPhrase.length, noteMin: low, noteMax: high, level: 1, probability: 1, source: .lead1)
        }
    }

    /// When `note` fires: kept (one draw), then its pitch among the scale's notes in range and its
    /// velocity U(0.5, 0.9)·level (two more). Nil when the probability draw drops it.
    public static func pick(_ note: Note, scale: KesshoScale, root: Int, draw: () -> Double) -> (midi: Int, velocity: Double)? {
        guard draw() <= note.probability else { return nil }
        let lo = max(24, note.noteMin), hi = min(108, note.noteMax)
        var available = KesshoScales.notes(scale, root: root, in: lo, hi)
        if available.isEmpty {
            let middle = Double(note.noteMin + note.noteMax) / 2
            let all = KesshoScales.notes(scale, root: root, in: 24, 108)
            if let closest = all.min(by: { abs(Double($0) - middle) < abs(Double($1) - middle) }) { available = [closest] }
        }
        guard !available.isEmpty else { return nil }
        let midi = available[min(Int(draw() * Double(available.count)), available.count - 1)]
        let velocity = 0.5 * note.level + draw() * 0.4 * note.level
        return (midi, velocity)
    }
}
