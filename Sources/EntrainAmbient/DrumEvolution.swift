import EntrainDSP
import Kessho

/// A drum lane's "evolve" settings: on/off, every how many bars, and how strongly. They are the
/// conductor's (`ConductorSetting.evolve`, set at the ambient family's own addresses), never part
/// of the hashed Kessho state.
public struct DrumEvolveSetting: Sendable, Equatable {
    public var on = false
    public var everyBars = 4
    public var intensity = 0.5

    public init() {}

    /// One field of a lane's settings, as the ambient family's addresses set it.
    public enum Field: Sendable, Equatable {
        case on(Bool)
        case everyBars(Int)
        case intensity(Double)
    }

    /// Take `field`, clamped to its range (an intensity that is not a number is ignored).
    mutating func take(_ field: Field) {
        switch field {
        case .on(let b): on = b
        case .everyBars(let n): everyBars = min(max(n, 1), 64)
        case .intensity(let x) where x.isFinite: intensity = min(max(x, 0), 1)
        case .intensity: break
        }
    }
}

/// How far a lane has wandered from its home (the lane's own sliders) — rotation, hits, swing,
/// pitch, per-step velocities, chances, ghost notes, ratchets and morph values: every tick drifts it by
/// the intensity, and "gravity" pulls each offset back, so with intensity 0 it comes home.
/// Draws come from the lane's own seeded stream, so the same seed and start give the same walk.
struct DrumLaneEvolution {
    static let maxSteps = 32
    /// Share of an offset gravity removes each tick, and below which it snaps home.
    static let gravity = 0.3, snap = 0.01

    var rotation = 0, hits = 0
    var swing = 0.0
    /// Semitones the lane's hits are transposed by.
    var pitch = 0.0
    /// Per step: velocity offset, probability taken off, ghost-note velocity (a share of the level).
    var velocity = [Double](repeating: 0, count: maxSteps)
    var drop = [Double](repeating: 0, count: maxSteps)
    var ghost = [Double](repeating: 0, count: maxSteps)
    /// Per step: the ratchet (repeats of a main hit, 1 = none) and the morph offset (±0.5).
    var ratchet = [Int](repeating: 1, count: maxSteps)
    var morph = [Double](repeating: 0, count: maxSteps)
    var draws: Mulberry32

    init(seed: UInt64, lane: Int) {
        draws = Mulberry32(seed: UInt32(truncatingIfNeeded: (seed ^ 0xE70_1E) &* 2_654_435_761 &+ UInt64(lane) &* 97))
    }

    /// Back to the sliders (evolve switched off); the stream of draws goes on.
    mutating func goHome() {
        (rotation, hits, swing, pitch) = (0, 0, 0, 0)
        for s in 0..<Self.maxSteps { (velocity[s], drop[s], ghost[s], ratchet[s], morph[s]) = (0, 0, 0, 1, 0) }
    }

    var isHome: Bool {
        rotation == 0 && hits == 0 && swing == 0 && pitch == 0
            && !velocity.contains { $0 != 0 } && !drop.contains { $0 != 0 } && !ghost.contains { $0 != 0 }
            && !ratchet.contains { $0 != 1 } && !morph.contains { $0 != 0 }
    }

    /// One bar-boundary step of lane `home` at `intensity`: gravity first, then the drift.
    mutating func tick(intensity: Double, home: DrumLanes.Lane) {
        let steps = home.pattern.count
        func pull(_ x: Double) -> Double { let y = x * (1 - Self.gravity); return abs(y) < Self.snap ? 0 : y }
        func spread() -> Double { 2 * draws.next() - 1 }
        // Rotation and hits: ±1 with chance intensity/2, otherwise one step back toward home.
        func walk(_ x: inout Int, limit: Int) {
            if draws.next() < 0.5 * intensity {
                x = min(max(x + (draws.next() < 0.5 ? -1 : 1), -limit), limit)
            } else if x != 0 {
                x += x > 0 ? -1 : 1
            }
        }
        walk(&rotation, limit: max(steps / 2, 1))
        walk(&hits, limit: 2)
        swing = min(max(pull(swing) + 0.1 * intensity * spread(), 0), 0.5)
        pitch = min(max(pull(pitch) + intensity * spread(), -3), 3)
        for s in 0..<Self.maxSteps {
            velocity[s] = min(max(pull(velocity[s]) + 0.15 * intensity * spread(), -0.5), 0.5)
            drop[s] = min(max(pull(drop[s]) + 0.2 * intensity * spread(), 0), 0.5)
            let g = pull(ghost[s])
            let birth = draws.next() < 0.12 * intensity
            ghost[s] = birth ? 0.15 + 0.2 * draws.next() : (g < 0.05 ? 0 : g)
        }
        // Morph values wander like the velocities; a ratchet (2–4 repeats) is born now and then
        // and loses one repeat a tick, so it is gone within three.
        for s in 0..<Self.maxSteps {
            morph[s] = min(max(pull(morph[s]) + 0.1 * intensity * spread(), -0.5), 0.5)
            if ratchet[s] > 1 {
                ratchet[s] -= 1
            } else if draws.next() < 0.05 * intensity {
                ratchet[s] = 2 + min(Int(draws.next() * 3), 2)
            }
        }
    }

    /// The lane as evolved: its hits and rotation moved (hits kept within 1…steps), ghost notes
    /// on its rests, and per-step velocities and chances.
    func apply(to home: DrumLanes.Lane, homeHits: Int, homeRotation: Int) -> DrumLanes.Lane {
        var lane = home
        let steps = home.pattern.count
        let h = homeHits > 0 ? min(max(homeHits + hits, 1), steps) : 0
        let r = ((homeRotation + rotation) % steps + steps) % steps
        let main = KesshoEuclid.drumPattern(steps: steps, hits: h, rotation: r)
        lane.pattern = main
        lane.swing = swing
        lane.pitchRatio = pitch == 0 ? 1 : FastMath.exp2(pitch / 12)
        lane.ratchets = (0..<steps).map { $0 < Self.maxSteps && main[$0] ? ratchet[$0] : 1 }
        lane.morphShifts = (0..<steps).map { $0 < Self.maxSteps ? morph[$0] : 0 }
        for s in 0..<min(steps, Self.maxSteps) {
            if main[s] {
                lane.velocities[s] = min(max(home.level + velocity[s], 0), 1)
                lane.chances[s] = 1 - drop[s]
            } else if ghost[s] > 0 {
                lane.pattern[s] = true
                lane.velocities[s] = min(max(home.level * ghost[s], 0), 1)
            }
        }
        return lane
    }
}
