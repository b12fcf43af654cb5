/// tanh of two Float samples at once: Eigen's rational approximation (odd degree 13 over even
/// degree 6, the input clamped to ±7.905), absolute error below 4e-7 (FastTanhTests), with no
/// exponential and one division. For signals: the ocean's soft clip and the granulator's
/// feedback, where the Double exponential it replaces cost more than the rest of the sample.
public enum FastTanh {
    @inlinable @inline(__always)
    public static func tanh(_ x: SIMD2<Float>) -> SIMD2<Float> {
        let limit = SIMD2<Float>(repeating: 7.905_311_107_635_498)
        let v = x.clamped(lowerBound: -limit, upperBound: limit)
        let v2 = v * v
        var p = SIMD2<Float>(repeating: -2.760_768_477_423_55e-16)
        p = p * v2 + 2.000_187_904_824_77e-13
        p = p * v2 - 8.604_671_522_137_35e-11
        p = p * v2 + 5.122_297_090_371_14e-08
        p = p * v2 + 1.485_722_357_179_79e-05
        p = p * v2 + 6.372_619_288_754_36e-04
        p = p * v2 + 4.893_524_558_917_86e-03
        var q = SIMD2<Float>(repeating: 1.198_258_394_667_02e-06)
        q = q * v2 + 1.185_347_056_866_54e-04
        q = q * v2 + 2.268_434_632_439_00e-03
        q = q * v2 + 4.893_525_185_543_85e-03
        return v * p / q
    }
}
