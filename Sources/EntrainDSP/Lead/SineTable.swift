/// One cycle of a sine, 2048 points (+1 guard) with linear interpolation: the lead's operators
/// read it instead of evaluating a polynomial (up to 6 per note per frame). Error below 1.3e-6
/// (−118 dB); 2048 points of value and slope fill 16 KB, half the first-level cache, where 4096
/// filled all of it and the lead waited on its reads (the render moves by −129 dBFS).
public struct SineTable {
    public static let size = 2048
    /// Point i's value and the slope to point i + 1 side by side: one read takes both from one
    /// cache line (as two tables it touched two). Point `size` (one whole turn, sin 0) is a
    /// guard, so a phase that rounds to exactly 1 needs no clamp.
    let points: UnsafeMutablePointer<SIMD2<Float>>

    public init() {
        var values = [Float](repeating: 0, count: Self.size + 1)
        for i in 0...Self.size { values[i] = Float(FastMath.sinTurns(Double(i) / Double(Self.size))) }
        // Twice the points a read can reach, so that a read masked to 2·size − 1 stays inside
        // (the upper half, zeros, is never touched unless a phase is NaN).
        let points = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: 2 * Self.size)
        points.initialize(repeating: .zero, count: 2 * Self.size)
        for i in 0..<Self.size { points[i] = SIMD2(values[i], values[i + 1] - values[i]) }
        points[Self.size] = SIMD2(values[Self.size], 0)
        self.points = points
    }

    public func deallocate() { points.deallocate() }

    /// sin(2π·turns) for turns in [0, 1].
    @inline(__always)
    public func callAsFunction(_ turns: Double) -> Double {
        let (i, fraction) = FastMath.split(turns * Double(Self.size))
        let point = points[i & (2 * Self.size - 1)]
        return Double(point.x + point.y * Float(fraction))
    }
}
