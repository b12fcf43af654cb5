extension FixedWidthInteger {
    /// `value` rounded by `rule` and held inside the type's range; NaN gives 0. `Int(x)` traps
    /// when x is not finite or does not fit, and a file or a message can hold any double: use
    /// this wherever such a value becomes a count of frames, ticks or steps.
    @inlinable
    public init(saturating value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        guard !value.isNaN else { self = 0; return }
        let r = value.rounded(rule)
        if r >= Double(Self.max) {
            self = .max
        } else if r <= Double(Self.min) {
            self = .min
        } else {
            self.init(r)
        }
    }
}
