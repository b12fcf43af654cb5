/// A first-order thermal model of the LED fixture: the average drive (level × duty, as the CV
/// output) heats it towards its own value with a time constant; the estimate picks a state
/// and the state caps the level (the MindSync table: 1.0 / 0.5 / 0.1 / 0). A fixture that
/// reports its own state (`/led/thermal`) can only make it worse, never better. The pixel
/// outputs keep one each too, fed their frames' average drive.
public struct LEDThermalModel: Sendable {
    public enum State: Int, Sendable { case nominal = 0, fair, serious, critical }

    /// Sustained average drive (0...1) that the states start at, going up; coming down each
    /// threshold is 0.05 lower so the cap it imposes cannot make the state flicker.
    static var fairAt: Float { 0.6 }
    static var seriousAt: Float { 0.75 }
    static var criticalAt: Float { 0.9 }

    /// Per-frame smoothing for a 60 s time constant.
    let coefficient: Float
    public private(set) var heat: Float = 0
    public private(set) var modelState = State.nominal
    public var reported = State.nominal

    /// `sampleRate`: how many times a second `heat(by:)` is called.
    public init(sampleRate: Double, timeConstant: Double = 60) {
        coefficient = Float(1 / (timeConstant * sampleRate))
    }

    public var state: State { modelState.rawValue >= reported.rawValue ? modelState : reported }

    public var cap: Float {
        switch state {
        case .nominal: 1
        case .fair: 0.5
        case .serious: 0.1
        case .critical: 0
        }
    }

    /// Account for one output frame of drive `x` (0...1).
    @inline(__always)
    public mutating func heat(by x: Float) { heat += (x - heat) * coefficient }

    /// Re-evaluate the state (once per period is plenty for a 60 s time constant).
    public mutating func update() {
        let h = heat
        switch modelState {
        case .nominal: if h >= Self.fairAt { modelState = .fair }
        case .fair:
            if h >= Self.seriousAt { modelState = .serious } else if h < Self.fairAt - 0.05 { modelState = .nominal }
        case .serious:
            if h >= Self.criticalAt { modelState = .critical } else if h < Self.seriousAt - 0.05 { modelState = .fair }
        case .critical: if h < Self.criticalAt - 0.05 { modelState = .serious }
        }
    }
}
