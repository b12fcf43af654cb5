import EntrainDSP
import Kessho

/// A preset-to-preset morph at position 0…1, the web's way: numbers glide
/// linearly, everything else (enums, scale names, switches) snaps at the halfway point, the
/// root note walks the shortest way round the circle of fifths, and `reverbQuality` stays.
enum KesshoMorph {
    static func state(from a: KesshoState, to b: KesshoState, at position: Double) -> KesshoState {
        let t = min(max(position, 0), 1)
        var result = t < 0.5 ? a : b
        for (key, target) in b.entries {
            guard let x = a.number(key), let y = target.number else { continue }
            if key == "rootNote" { continue }
            result[key] = .number(x + (y - x) * t)
        }
        if let from = a.number("rootNote"), let to = b.number("rootNote") {
            result["rootNote"] = .number(Double(rootNote(from: Int(saturating: from, rounding: .towardZero), to: Int(saturating: to, rounding: .towardZero), at: t)))
        }
        if let quality = a["reverbQuality"] { result["reverbQuality"] = quality }
        return result
    }

    /// The shortest circle-of-fifths path from one root to another (ties clockwise); with N
    /// steps, path element k takes over at about k/(N+1) of the way.
    static func rootNote(from: Int, to: Int, at t: Double) -> Int {
        let circle = KesshoCircleOfFifths.circle
        guard let i = circle.firstIndex(of: ((from % 12) + 12) % 12), let j = circle.firstIndex(of: ((to % 12) + 12) % 12) else {
            return t < 0.5 ? from : to
        }
        let clockwise = (j - i + 12) % 12
        let steps = clockwise <= 6 ? clockwise : clockwise - 12
        let n = abs(steps)
        guard n > 0 else { return to }
        let k = min(n, Int((t * Double(n + 1)).rounded(.down)))
        return circle[(i + k * steps.signum() + 12) % 12]
    }
}
