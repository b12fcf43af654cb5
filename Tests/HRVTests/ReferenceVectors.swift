import EntrainHRV
import Foundation
import TestSupport

/// The reference engine's test series (built here from their definitions, not pasted).
enum ReferenceVectors {
    /// 1000 + trunc(80·sin(2πi/5)), i = 0…29: the sine term truncated toward zero.
    static let v1 = (0..<30).map { i in 1000 + (80 * sin(2 * Double.pi * Double(i) / 5)).rounded(.towardZero) }
    /// Anti-phase for lags 4–8: a 12-beat cycle.
    static let v2 = (0..<36).map { i in 1000 + (80 * sin(2 * Double.pi * Double(i) / 12)).rounded(.towardZero) }
    static let v3 = [Double](repeating: 800, count: 20)
    static let v4: [Double] = [1000, 950, 1050]
    static let v5 = Array(v1.prefix(10))
    static let v6: [Double] = [977, 707, 662, 1029, 790, 775, 764, 721, 1027, 702, 996, 1029, 929, 694, 952, 866, 666, 665, 697, 761,
                               769, 908, 958, 663, 937, 751, 1016, 982, 1009, 929]
    /// trunc(1000 + 120·sin(2πi/5)), i = 0…39: the total truncated.
    static let v7 = (0..<40).map { i in (1000 + 120 * sin(2 * Double.pi * Double(i) / 5)).rounded(.towardZero) }
    /// trunc(1000 + 100·sin(2πi/6)), i = 0…29: plateaus, so no strict peaks.
    static let v8 = (0..<30).map { i in (1000 + 100 * sin(2 * Double.pi * Double(i) / 6)).rounded(.towardZero) }
    /// 6 breaths/min resonance breathing, the last 20 RR of 300 s.
    static let v9: [Double] = [1006, 1052, 1078, 1070, 1032, 981, 940, 920, 927, 958, 1004, 1051, 1078, 1071, 1033, 983, 941, 920, 927, 957]

    /// One of our series in Tests/Fixtures/hrv (made by scripts/hrv-reference-figures.py).
    static func fixture(_ name: String) throws -> [Double] {
        let url = Fixtures.ours("hrv").appendingPathComponent(name + ".txt")
        return try RRSeriesFile.parse(String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
    }

    static func alternating(_ a: Double, _ b: Double, count: Int) -> [Double] { (0..<count).map { $0 % 2 == 0 ? a : b } }
}
