import Foundation

/// One event's strength over time, on the 1 ms tick grid.
///
/// Apple documents the time parameters only as 0 = shortest, growing exponentially, so the
/// mapping to seconds is ours:
/// * transient: full intensity on its own tick (the attack is shorter than a tick), then an
///   exponential decay that reaches 1 % (−40 dB) after `transientDecay(DecayTime)` =
///   20 ms × 10^DecayTime (20…200 ms), and stops there;
/// * continuous: a linear attack over `ramp(AttackTime)`; then either the sustain level for the
///   rest of `EventDuration` (Sustained = 1), or a linear decay to 0 over `ramp(DecayTime)`
///   (Sustained = 0); the whole is multiplied by a linear release to 0 over `ramp(ReleaseTime)`
///   that ends with `EventDuration`, so the event never outlasts its duration. If the attack and
///   release overlap they multiply, which keeps the shape continuous.
/// `ramp(x)` = 1 ms × 1000^x (1 ms…1 s). Event times are rounded to the nearest tick, so a
/// transient always reaches its full intensity on exactly one tick.
struct AHAPEnvelope {
    static let ticksPerSecond = HapticPattern.controlRate

    static func ramp(_ x: Double) -> Double { 0.001 * pow(1000, x) }
    static func transientDecay(_ x: Double) -> Double { 0.020 * pow(10, x) }
    /// The longest a transient can ring: its length at DecayTime 1.
    static let longestTransient = transientDecay(1)

    static func tick(_ seconds: Double) -> Int { Int((seconds * ticksPerSecond).rounded()) }

    let startTick: Int
    /// Ticks from `startTick` during which the event is active (it may be at 0 at the edges).
    let lengthTicks: Int
    let intensity: Double
    let sharpness: Double
    private let shape: Shape

    private enum Shape {
        case transient(decayTicks: Double)
        case continuous(attack: Double, decay: Double?, release: Double, length: Double)  // seconds
    }

    /// `attackShift` etc. are the dynamic time controls at the moments they act; they add to
    /// the event's own 0…1 value and the sum is clamped (Apple's rule for adding parameters).
    init(_ event: AHAPPattern.Event, attackShift: Double, decayShift: Double, releaseShift: Double) {
        func adjusted(_ x: Double, _ shift: Double) -> Double { min(max(x + shift, 0), 1) }
        startTick = Self.tick(event.time)
        intensity = event.intensity
        sharpness = event.sharpness
        switch event.kind {
        case .transient:
            let decay = Self.transientDecay(adjusted(event.decayTime, decayShift)) * Self.ticksPerSecond
            lengthTicks = Int(decay.rounded(.up))
            shape = .transient(decayTicks: decay)
        case .continuous:
            lengthTicks = Self.tick(event.duration)
            shape = .continuous(attack: Self.ramp(adjusted(event.attackTime, attackShift)),
                                decay: event.sustained ? nil : Self.ramp(adjusted(event.decayTime, decayShift)),
                                release: Self.ramp(adjusted(event.releaseTime, releaseShift)),
                                length: Double(lengthTicks) / Self.ticksPerSecond)
        }
    }

    var endTick: Int { startTick + lengthTicks }

    /// The level `k` ticks after the start, 0…intensity; 0 outside the event.
    func level(_ k: Int) -> Double {
        guard k >= 0, k < lengthTicks else { return 0 }
        switch shape {
        case .transient(let decayTicks):
            return intensity * pow(100, -Double(k) / decayTicks)
        case .continuous(let attack, let decay, let release, let length):
            let t = Double(k) / Self.ticksPerSecond
            let rise = min(1, t / attack)
            let body = decay.map { max(0, 1 - max(0, t - attack) / $0) } ?? 1
            let fall = min(1, (length - t) / release)
            return intensity * rise * body * fall
        }
    }
}
