/// One cycle of a sine, 4096 points (+1 guard) with linear interpolation: the lead's operators
/// read it instead of evaluating a polynomial (up to 6 per note per frame). Error below 3e-7.
public struct SineTable {
    public static let size = 4096
    /// Point i's value and the slope to point i + 1 side by side: one read takes both from one
    /// cache line (as two tables it touched two).
    let points: UnsafeMutablePointer<SIMD2<Float>>

    public init() {
        var values = [Float](repeating: 0, count: Self.size + 1)
        for i in 0...Self.size { values[i] = Float(FastMath.sinTurns(Double(i) / Double(Self.size))) }
        let points = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: Self.size)
        for i in 0..<Self.size { points[i] = SIMD2(values[i], values[i + 1] - values[i]) }
        self.points = points
    }

    public func deallocate() { points.deallocate() }

    /// sin(2π·turns) for turns in [0, 1).
    @inline(__always)
    public func callAsFunction(_ turns: Double) -> Double {
        let x = turns * Double(Self.size)
        var i = Int(x)
        if i > Self.size - 1 { i = Self.size - 1 }  // turns = 1 exactly (a wrap can round to it)
        if i < 0 { i = 0 }
        let point = points[i]
        return Double(point.x + point.y * Float(x - Double(i)))
    }
}
