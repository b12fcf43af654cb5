import Foundation

/// A4 = 432 Hz tuning and the 11 scales with their tension weighting, as the web has them.
public struct KesshoScale: Sendable, Equatable {
    public enum Level: Sendable { case consonant, color, high }

    public let name: String
    public let intervals: [Int]
    public let level: Level
    public let tensionValue: Double
}

public enum KesshoScales {
    /// In the web's table order: the roulette draw walks this order.
    public static let all: [KesshoScale] = [
        KesshoScale(name: "Major Pentatonic", intervals: [0, 2, 4, 7, 9], level: .consonant, tensionValue: 0.00),
        KesshoScale(name: "Major (Ionian)", intervals: [0, 2, 4, 5, 7, 9, 11], level: .consonant, tensionValue: 0.05),
        KesshoScale(name: "Lydian", intervals: [0, 2, 4, 6, 7, 9, 11], level: .consonant, tensionValue: 0.10),
        KesshoScale(name: "Mixolydian", intervals: [0, 2, 4, 5, 7, 9, 10], level: .consonant, tensionValue: 0.18),
        KesshoScale(name: "Minor Pentatonic", intervals: [0, 3, 5, 7, 10], level: .consonant, tensionValue: 0.22),
        KesshoScale(name: "Dorian", intervals: [0, 2, 3, 5, 7, 9, 10], level: .consonant, tensionValue: 0.25),
        KesshoScale(name: "Aeolian", intervals: [0, 2, 3, 5, 7, 8, 10], level: .color, tensionValue: 0.35),
        KesshoScale(name: "Harmonic Minor", intervals: [0, 2, 3, 5, 7, 8, 11], level: .color, tensionValue: 0.50),
        KesshoScale(name: "Melodic Minor", intervals: [0, 2, 3, 5, 7, 9, 11], level: .color, tensionValue: 0.55),
        KesshoScale(name: "Octatonic Half-Whole", intervals: [0, 1, 3, 4, 6, 7, 9, 10], level: .high, tensionValue: 0.85),
        KesshoScale(name: "Phrygian Dominant", intervals: [0, 1, 4, 5, 7, 8, 10], level: .high, tensionValue: 0.90),
    ]

    public static func named(_ name: String) -> KesshoScale? { all.first { $0.name == name } }

    /// midiToFreq(m) = 432·2^((m − 69)/12).
    public static func frequency(midi: Double) -> Double { 432 * pow(2, (midi - 69) / 12) }

    /// Candidate band by tension: ≤0.25 consonant; ≤0.55 +color; ≤0.80 color+high; else high.
    public static func candidates(tension t: Double) -> [KesshoScale] {
        let levels: Set<KesshoScale.Level>
        if t <= 0.25 { levels = [.consonant] }
        else if t <= 0.55 { levels = [.consonant, .color] }
        else if t <= 0.80 { levels = [.color, .high] }
        else { levels = [.high] }
        return all.filter { levels.contains($0.level) }
    }

    /// Weight = (1 / (|tensionValue − T| + 0.05))^1.5.
    public static func weight(_ scale: KesshoScale, tension t: Double) -> Double {
        pow(1 / (abs(scale.tensionValue - t) + 0.05), 1.5)
    }

    /// One roulette draw over the tension band, in table order.
    public static func select(tension: Double, rng: inout KesshoRandom) -> KesshoScale {
        let c = candidates(tension: tension)
        return c[rng.weightedIndex(c.map { weight($0, tension: tension) })]
    }

    /// Scale notes in [lo, hi]: 36 + root + 12k + interval for k = 0…7, filtered, ascending.
    public static func notes(_ scale: KesshoScale, root: Int, in lo: Int, _ hi: Int) -> [Int] {
        var out: [Int] = []
        for k in 0...7 {
            for i in scale.intervals {
                let m = 36 + root + 12 * k + i
                if m >= lo && m <= hi { out.append(m) }
            }
        }
        return out.sorted()
    }
}
