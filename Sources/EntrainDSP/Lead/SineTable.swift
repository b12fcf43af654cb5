/// One cycle of a sine, 4096 points (+1 guard) with linear interpolation: the lead's operators
/// read it instead of evaluating a polynomial (up to 6 per note per frame). Error below 3e-7.
public struct SineTable {
    public static let size = 4096
    let values: UnsafeMutablePointer<Float>
    /// values[i + 1] − values[i], stored once (the subtraction each read used to make).
    let slopes: UnsafeMutablePointer<Float>

    public init() {
        let values = UnsafeMutablePointer<Float>.allocate(capacity: Self.size + 1)
        for i in 0...Self.size { values[i] = Float(FastMath.sinTurns(Double(i) / Double(Self.size))) }
        let slopes = UnsafeMutablePointer<Float>.allocate(capacity: Self.size)
        for i in 0..<Self.size { slopes[i] = values[i + 1] - values[i] }
        self.values = values
        self.slopes = slopes
    }

    public func deallocate() { values.deallocate(); slopes.deallocate() }

    /// sin(2π·turns) for turns in [0, 1).
    @inline(__always)
    public func callAsFunction(_ turns: Double) -> Double {
        let x = turns * Double(Self.size)
        var i = Int(x)
        if i > Self.size - 1 { i = Self.size - 1 }  // turns = 1 exactly (a wrap can round to it)
        if i < 0 { i = 0 }
        return Double(values[i] + slopes[i] * Float(x - Double(i)))
    }
}
