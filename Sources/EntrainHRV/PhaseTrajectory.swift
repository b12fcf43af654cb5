import Foundation

/// The 3-D phase space of the capture spec: each tick's position (entrainment, breathing rate
/// mapped 4→0 … 20→1 breaths/min, amplitude 0…1), how fast and how unevenly it moves, and
/// whether its steps repeat (trajectory coherence). Keeps the last `capacity` ticks.
public struct PhaseTrajectory: Sendable {
    public struct Dynamics: Sendable, Equatable {
        public var position: [Double]
        public var velocity: [Double]
        public var speed: Double
        /// The size of the change of velocity (the engines call it curvature).
        public var curvature: Double
        public var stability: Double
        /// Path length per second over the window, 0.5/s or more is 1.
        public var historySignature: Double
        public var label: String
        public var coherence: Double
        public var warmingUp: Bool
    }

    struct State: Sendable {
        var t: Double
        var position: [Double]
    }

    public let capacity: Int
    public static let coherenceLag = 5
    private var states: [State] = []

    public init(capacity: Int = 30) { self.capacity = capacity }

    public static func position(entrainment: Double, breathRate: Double?, amplitudeNorm: Double) -> [Double] {
        [entrainment, breathRate.map { RRStatistics.clamp01(($0 - 4) / 16) } ?? 0.5, amplitudeNorm]
    }

    public mutating func append(_ p: [Double], at t: Double) -> Dynamics {
        defer {
            states.append(State(t: t, position: p))
            if states.count > capacity { states.removeFirst(states.count - capacity) }
        }
        guard states.count >= 2 else {
            let coherence = Self.coherence(states.map(\.position) + [p])
            return Dynamics(position: p, velocity: [0, 0, 0], speed: 0, curvature: 0, stability: 0.5, historySignature: 0,
                            label: "warming up", coherence: coherence, warmingUp: true)
        }
        let last = states[states.count - 1], before = states[states.count - 2]
        let dt1 = max(t - last.t, 0.001), dt2 = max(last.t - before.t, 0.001)
        let v = zip(p, last.position).map { ($0 - $1) / dt1 }
        let vPrevious = zip(last.position, before.position).map { ($0 - $1) / dt2 }
        let a = zip(v, vPrevious).map { ($0 - $1) / ((dt1 + dt2) / 2) }
        let speed = Self.norm(v), curvature = Self.norm(a)
        let stability = RRStatistics.clamp01(1 / (1 + 2 * (speed + 0.5 * curvature)))
        var path = 0.0
        for i in 1..<states.count { path += Self.norm(zip(states[i].position, states[i - 1].position).map { $0 - $1 }) }
        path += Self.norm(zip(p, last.position).map { $0 - $1 })
        let span = max(t - states[0].t, 1)
        let signature = min(1, path / span / 0.5)
        let coherence = Self.coherence(states.suffix(capacity - 1).map(\.position) + [p])
        return Dynamics(position: p, velocity: v, speed: speed, curvature: curvature, stability: stability, historySignature: signature,
                        label: Self.label(entrainment: p[0], speed: speed, curvature: curvature, stability: stability),
                        coherence: coherence, warmingUp: false)
    }

    public static func label(entrainment ent: Double, speed: Double, curvature: Double, stability: Double) -> String {
        if stability > 0.7 && ent > 0.6 { return "entrained dwelling" }
        if curvature > 0.3 { return ent > 0.5 ? "inflection (from entrainment)" : "inflection (seeking)" }
        if speed > 0.1 { return ent > 0.5 ? "flowing (entrained)" : "active transition" }
        if stability > 0.6 {
            if ent > 0.5 { return "settling into entrainment" }
            return ent > 0.3 ? "neutral dwelling" : "alert stillness"
        }
        return "transitional"
    }

    /// Whether the trajectory's steps repeat `coherenceLag` ticks apart, in size and direction,
    /// 0…1; standing still counts as dwelling (0.8); fewer than lag + 3 positions give 0.
    public static func coherence(_ positions: [[Double]]) -> Double {
        let lag = coherenceLag
        guard positions.count >= lag + 3 else { return 0 }
        let steps = (1..<positions.count).map { i in zip(positions[i], positions[i - 1]).map { $0 - $1 } }
        let sizes = steps.map(norm)
        let m = Double(sizes.count)
        let mean = sizes.reduce(0, +) / m
        let variance = sizes.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / m
        guard variance >= 1e-10 else { return 0.8 }
        var covariance = 0.0, directions: [Double] = []
        for i in 0..<(sizes.count - lag) {
            covariance += (sizes[i] - mean) * (sizes[i + lag] - mean)
            if sizes[i] > 1e-6 && sizes[i + lag] > 1e-6 {
                let dot = zip(steps[i], steps[i + lag]).reduce(0) { $0 + $1.0 * $1.1 }
                directions.append((dot / (sizes[i] * sizes[i + lag]) + 1) / 2)
            }
        }
        let rho = covariance / m / variance
        let direction = directions.isEmpty ? 0.5 : directions.reduce(0, +) / Double(directions.count)
        return RRStatistics.clamp01(0.5 * max(0, rho) + 0.5 * direction)
    }

    static func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }
}

/// A few words on how the calm score moves: settled, still, accelerating, decelerating or
/// moving, "from" the last mode shortly after a change.
public enum MovementAnnotation {
    public static let velocityThreshold = 0.03
    public static let accelerationThreshold = 0.01
    public static let settledSeconds = 5.0
    public static let recentSeconds = 3.0

    public static func annotate(velocity v: Double, acceleration a: Double, previousMode: String?, dwell: Double) -> String {
        var text: String
        if abs(v) < velocityThreshold { text = dwell >= settledSeconds ? "settled" : "still" }
        else if a > accelerationThreshold { text = "accelerating" }
        else if a < -accelerationThreshold { text = "decelerating" }
        else { text = "moving" }
        if let previousMode, dwell < recentSeconds { text += " from \(previousMode)" }
        return text
    }

    /// The mode alone when nothing is happening, else "mode (annotation)".
    public static func label(mode: String, annotation: String) -> String {
        ["insufficient data", "unknown", "settled"].contains(annotation) ? mode : "\(mode) (\(annotation))"
    }
}
