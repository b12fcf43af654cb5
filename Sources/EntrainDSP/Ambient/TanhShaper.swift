/// The pad's soft clipper: Web Audio WaveShaperNode semantics with Kessho's 256-point curve
/// y = tanh(k·x)/tanh(k), k = 1 + 3·hardness (curve point i at x = 2i/255 − 1). Inputs map
/// linearly onto the curve and interpolate between points; beyond ±1 they hold the end values.
/// Reads the curve at whatever rate it is given; PadVoice runs it inside a HalfbandOversampler
/// for Web Audio's "2x" mode.
public struct TanhShaper {
    public static let points = 256
    @usableFromInline let curve: UnsafeMutablePointer<Float>
    /// curve[i + 1] − curve[i], stored once (the same subtraction the lookup made per sample).
    @usableFromInline let slope: UnsafeMutablePointer<Float>
    public private(set) var hardness: Double = -1

    public init(hardness: Double) {
        curve = .allocate(capacity: Self.points)
        slope = .allocate(capacity: Self.points)
        setHardness(hardness)
    }

    public func deallocate() { curve.deallocate(); slope.deallocate() }

    /// Rebuild the curve (256 exponentials; only when hardness changes, at control rate).
    public mutating func setHardness(_ value: Double) {
        guard value != hardness else { return }
        hardness = value
        let k = 1 + 3 * value
        let norm = Self.tanh(k)
        for i in 0..<Self.points {
            let x = 2 * Double(i) / Double(Self.points - 1) - 1
            curve[i] = Float(Self.tanh(k * x) / norm)
        }
        for i in 0..<(Self.points - 1) { slope[i] = curve[i + 1] - curve[i] }
        slope[Self.points - 1] = 0
    }

    /// tanh from FastMath.exp2, odd-symmetric so it is exact in sign.
    @inlinable
    public static func tanh(_ x: Double) -> Double {
        let e = FastMath.exp2(-2.885_390_081_777_926_8 * abs(x))  // e^(−2|x|)
        let t = (1 - e) / (1 + e)
        return x < 0 ? -t : t
    }

    @inlinable @inline(__always)
    public func process(_ x: Float) -> Float {
        let v = (x + 1) * Float(Self.points - 1) * 0.5
        if !(v > 0) { return curve[0] }  // also catches NaN
        if v >= Float(Self.points - 1) { return curve[Self.points - 1] }
        let i = Int(v)
        let frac = v - Float(i)
        return curve[i] + slope[i] * frac
    }

    @inlinable @inline(__always)
    public func process(_ x: SIMD2<Float>) -> SIMD2<Float> { SIMD2(process(x[0]), process(x[1])) }
}
