/// One cycle of a sine, 4096 points (+1 guard) with linear interpolation: the lead's operators
/// read it instead of evaluating a polynomial (up to 6 per note per frame). Error below 3e-7.
public struct SineTable {
    public static let size = 4096
    let values: UnsafeMutablePointer<Float>

    public init() {
        values = .allocate(capacity: Self.size + 1)
        for i in 0...Self.size { values[i] = Float(FastMath.sinTurns(Double(i) / Double(Self.size))) }
    }

    public func deallocate() { values.deallocate() }

    /// sin(2π·turns) for turns in [0, 1).
    @inline(__always)
    public func callAsFunction(_ turns: Double) -> Double {
        let x = turns * Double(Self.size)
        let i = min(max(Int(x), 0), Self.size - 1)
        let a = values[i], b = values[i + 1]
        return Double(a + (b - a) * Float(x - Double(i)))
    }
}
