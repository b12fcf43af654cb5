import Foundation

/// First-order filters for shaping noise in the drum voices; exact response does not matter,
/// only that the result is deterministic and band-limited.
struct OnePoleLowPass {
    private let b: Float
    private var y: Float = 0
    init(cutoff: Double, sampleRate: Int) { b = Float(1 - exp(-2 * Double.pi * cutoff / Double(sampleRate))) }
    mutating func callAsFunction(_ x: Float) -> Float { y += b * (x - y); return y }
}

struct OnePoleHighPass {
    private let a: Float
    private var x1: Float = 0, y: Float = 0
    init(cutoff: Double, sampleRate: Int) { a = Float(1 / (1 + 2 * Double.pi * cutoff / Double(sampleRate))) }
    mutating func callAsFunction(_ x: Float) -> Float { y = a * (y + x - x1); x1 = x; return y }
}
