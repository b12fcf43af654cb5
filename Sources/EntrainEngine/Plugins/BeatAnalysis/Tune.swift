import Foundation
// TEMPORARY tuning hook (removed before commit).
enum Tune {
    static func value(_ name: String, _ fallback: Double) -> Double {
        ProcessInfo.processInfo.environment["TUNE_" + name].flatMap(Double.init) ?? fallback
    }
}
