/// The numeric keys the web leaves without a quantiser entry still have a meaningful range, and
/// the engine turns them into integers: a preset's value is checked against these at load, as
/// the other keys are against their quantiser range, so nothing huge or fractional gets in.
extension KesshoParameter {
    static let unquantisedRanges: [String: ClosedRange<Double>] = [
        "rootNote": 0...11,           // the 12 pitch classes, C=0 … B=11
        "cofCurrentStep": -6...6,     // the drift position around the circle of fifths
        "drumEuclidDivision": 1...64, // a clock division (not read by the scheduler)
    ]

    /// The range a loaded or sent value must lie in: the quantiser's, or the one above.
    public var loadRange: ClosedRange<Double>? { range ?? Self.unquantisedRanges[key] }

    /// Keys whose value must be a whole number (the unquantised ones are all counts or indices).
    public var needsWholeNumber: Bool { Self.unquantisedRanges[key] != nil }
}
