import EntrainDSP

/// Circle-of-fifths key drift, the web's way. State values become integers without trapping,
/// whatever a preset or a morph put there (`Int(saturating:)`).
public enum KesshoCircleOfFifths {
    public enum Direction: String, Sendable { case cw, ccw, random }

    /// Semitone of each circle position: C G D A E B F# C# G# D# A# F.
    public static let circle = [0, 7, 2, 9, 4, 11, 6, 1, 8, 3, 10, 5]

    /// Root number → pitch class 0…11 (rootNote has no quantiser, so wrap anything).
    public static func pitchClass(_ root: Double) -> Int { ((Int(saturating: root) % 12) + 12) % 12 }

    /// circle[(index(home) + step) mod 12].
    public static func drifted(home: Int, step: Int) -> Int {
        let i = circle.firstIndex(of: ((home % 12) + 12) % 12)!
        return circle[(((i + step) % 12) + 12) % 12]
    }
}

/// The engine's drift position: counter and step, updated once per phrase boundary.
public struct KesshoCoFDrift: Sendable, Equatable {
    public private(set) var step = 0
    public private(set) var counter = 0

    public init() {}

    /// Disabling drift or loading a preset returns home.
    public mutating func reset() { step = 0; counter = 0 }

    /// One boundary. `coin` is only called for the random direction (one engine-RNG draw).
    /// Returns true when the step changed (which forces a new chord).
    public mutating func advance(enabled: Bool, rate: Int, range: Int, direction: KesshoCircleOfFifths.Direction,
                                 coin: () -> Double) -> Bool {
        guard enabled else { reset(); return false }
        counter += 1
        guard counter >= rate else { return false }
        counter = 0
        let dir: Int
        switch direction {
        case .cw: dir = 1
        case .ccw: dir = -1
        case .random: dir = coin() < 0.5 ? 1 : -1
        }
        var next = step + dir
        if abs(next) > range {
            next = step - dir  // bounce one step back toward home
            if abs(next) > range { next = step }
        }
        let moved = next != step
        step = next
        return moved
    }

    /// The same, reading rate/range/direction from the state (unknown direction → cw).
    public mutating func advance(state: KesshoState, coin: () -> Double) -> Bool {
        advance(enabled: state.bool("cofDriftEnabled") ?? false,
                rate: Int(saturating: state.number("cofDriftRate") ?? 2, rounding: .towardZero),
                range: Int(saturating: state.number("cofDriftRange") ?? 3, rounding: .towardZero),
                direction: KesshoCircleOfFifths.Direction(rawValue: state.string("cofDriftDirection") ?? "cw") ?? .cw,
                coin: coin)
    }
}
