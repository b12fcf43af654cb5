@testable import EntrainAmbient
import EntrainDSP
import EntrainEngine
import Kessho
import XCTest

/// Drum lane "evolve", measured on the hits the conductor queues: lane 1 (kick, 8 steps / 5 hits
/// at 1/8 notes, 120 BPM: a bar is 2 s = 96 000 frames, a step 12 000) evolves; lane 2 does not.
extension AmbientRhythmTests {
    /// Lane 1 evolving (the conductor's own settings, typed: not Kessho keys).
    func evolving(every: Int = 1, intensity: Double = 1) -> [ConductorSetting] {
        [.evolve(lane: 0, .on(true)), .evolve(lane: 0, .everyBars(every)), .evolve(lane: 0, .intensity(intensity))]
    }

    struct Hit: Equatable { var frame: Int64, velocity: Double, decay = 0.0 }

    func kicks(_ events: [AmbientEvent], from seconds: Double = 0) -> [Hit] {
        events.filter { $0.kind == .drumHit && $0.hit.voice == .kick && $0.frame >= Int64(seconds * 48_000) }
            .map { Hit(frame: $0.frame, velocity: $0.hit.velocity, decay: $0.hit.decay) }
    }

    /// Each bar's kicks as (frame in the bar, velocity).
    func bars(_ hits: [Hit]) -> [[Hit]] {
        Dictionary(grouping: hits) { $0.frame / 96_000 }.sorted { $0.key < $1.key }
            .map { $0.value.map { Hit(frame: $0.frame % 96_000, velocity: $0.velocity) } }
    }

    /// Evolve on: the kicks change from bar to bar and differ from the lane's own; the lane that
    /// does not evolve keeps its hits exactly.
    func testEvolveVariesTheHitsOverBars() throws {
        // Twenty whole bars (the run's lookahead reaches the next bar's first step).
        let plain = try run(drumState(), seconds: 40).filter { $0.frame < 40 * 48_000 }
        let evolved = try run(drumState(), settings: evolving(), seconds: 40).filter { $0.frame < 40 * 48_000 }
        XCTAssertNotEqual(kicks(evolved), kicks(plain))
        let patterns = bars(kicks(evolved)).map { "\($0)" }
        XCTAssertGreaterThanOrEqual(Set(patterns).count, 12, "of \(patterns.count) bars")
        XCTAssertEqual(Set(bars(kicks(plain)).map { "\($0)" }).count, 1, "without evolve every bar is the same")
        func beeps(_ e: [AmbientEvent]) -> [Hit] {
            e.filter { $0.hit.voice == .beepHi }.map { Hit(frame: $0.frame, velocity: $0.hit.velocity) }
        }
        XCTAssertEqual(beeps(evolved), beeps(plain))
        XCTAssertFalse(beeps(plain).isEmpty)
    }

    /// Two minutes at full intensity: velocities within 0–1, every step's first kick on its step
    /// or swung late by at most a quarter step, ghost notes (below 0.8 × 0.35) on some rests, and
    /// the main hits (the level ± 0.5) never more than the 5 + 2 hits evolve allows in a bar.
    /// Ratchets: a step's later kicks are its repeats, each 0.7 × the one before, at most 4 in
    /// all, 3 000–5 400 frames apart (a quarter to 0.45 of a step), decays within 90 % of that.
    /// Morph values wander: the main kicks' decays (from presets A and B) take many values.
    func testEvolveStaysWithinBounds() throws {
        var state = drumState()
        state["drumKickPresetB"] = .string("Far Boom")  // A is "Ikeda Kick": the morph has somewhere to go
        let hits = kicks(try run(state, settings: evolving(), seconds: 120))
        XCTAssertGreaterThan(hits.count, 300)
        let steps = Dictionary(grouping: hits) { $0.frame / 12_000 }.sorted { $0.key < $1.key }.map(\.value)
        var ratcheted = 0
        for step in steps {
            let first = step[0]
            XCTAssertTrue((0...1).contains(first.velocity), "\(first)")
            XCTAssertLessThanOrEqual(first.frame % 12_000, 3_000, "at most half a swing of a step late: \(first)")
            guard step.count > 1 else { continue }
            ratcheted += 1
            XCTAssertLessThanOrEqual(step.count, 4, "\(step)")
            let spacing = step[1].frame - first.frame
            XCTAssertTrue((2_999...5_401).contains(spacing), "\(step)")
            for (a, b) in zip(step, step.dropFirst()) {
                XCTAssertEqual(b.frame - a.frame, spacing, accuracy: 1, "\(step)")
                XCTAssertEqual(b.velocity, 0.7 * a.velocity, accuracy: 1e-9, "\(step)")
                XCTAssertLessThanOrEqual(b.decay, 0.9 * Double(spacing) / 48, "\(step)")
            }
        }
        XCTAssertGreaterThan(ratcheted, 3, "ratchets are born")
        let main = steps.map { $0[0] }
        XCTAssertTrue(main.contains { $0.frame % 12_000 != 0 }, "swing drifted")
        XCTAssertTrue(main.contains { $0.velocity < 0.28 }, "ghost notes")
        XCTAssertTrue(Set(main.map(\.velocity)).count > 50, "velocities drift")
        XCTAssertGreaterThan(Set(main.filter { $0.velocity >= 0.29 }.map(\.decay)).count, 20, "morph values drift")
        for bar in bars(main) {
            XCTAssertLessThanOrEqual(bar.filter { $0.velocity >= 0.29 }.count, 7, "\(bar)")
        }
    }

    /// The same seed and start: the same walk, hit for hit; another seed: another walk.
    func testEvolveIsSeededAndRepeatable() throws {
        let s = drumState(), e = evolving(every: 2, intensity: 0.7)
        func digest(_ e: [AmbientEvent]) -> [String] {
            e.map { "\($0.kind) \($0.frame) \($0.hit.voice) \($0.hit.velocity) \($0.hit.frequency)" }
        }
        let a = try run(s, settings: e, seconds: 40), b = try run(s, settings: e, seconds: 40)
        let c = try run(s, settings: e, seconds: 40, seed: 10)
        XCTAssertEqual(digest(a), digest(b))
        XCTAssertNotEqual(kicks(a), kicks(c))
    }

    /// Gravity: with the intensity turned to 0 (at 20 s), the lane walks back to its sliders and
    /// from then on (16 bars later at the latest) plays exactly the hits of a lane that never evolved.
    func testGravityBringsTheLaneHome() throws {
        let plain = try run(drumState(), seconds: 76)
        let evolved = try run(drumState(), settings: evolving(), seconds: 76, changes: [(20, .evolve(lane: 0, .intensity(0)))])
        XCTAssertNotEqual(kicks(evolved).filter { $0.frame < 20 * 48_000 }, kicks(plain).filter { $0.frame < 20 * 48_000 })
        XCTAssertEqual(kicks(evolved, from: 56), kicks(plain, from: 56))
        XCTAssertGreaterThanOrEqual(kicks(plain, from: 56).count, 5 * 10)
    }

    /// Evolve off (its other settings given): the hits are the lane's own, and the settings stay
    /// out of the hashed state.
    func testEvolveOffLeavesTheHitsAlone() throws {
        let off = evolving(every: 1, intensity: 1) + [.evolve(lane: 0, .on(false))]
        let a = try run(drumState(), settings: off, seconds: 20), b = try run(drumState(), seconds: 20)
        XCTAssertEqual(a.filter { $0.kind == .drumHit }.map { "\($0.frame) \($0.hit)" },
                       b.filter { $0.kind == .drumHit }.map { "\($0.frame) \($0.hit)" })
        let host = try EngineHost(sampleRate: 48_000)
        let conductor = AmbientConductor(host: host, state: drumState(), settings: off) { .init(frame: 0, unixSeconds: Self.start) }
        XCTAssertEqual(conductor.evolve(lane: 0).everyBars, 1)
        XCTAssertFalse(conductor.evolve(lane: 0).on)
        try conductor.set(.evolve(lane: 0, .everyBars(99)))
        XCTAssertEqual(conductor.evolve(lane: 0).everyBars, 64, "clamped")
        XCTAssertEqual(conductor.state, drumState(), "not hashed")
    }

    /// The walk itself, thousands of ticks at full intensity on a full, a single-hit and a
    /// 16-step lane: hits stay within 1…steps and ±2 of home, every value within its range;
    /// then with intensity 0 gravity brings every offset exactly home.
    func testEvolutionWalkBoundsAndGravity() {
        for (steps, hits) in [(8, 8), (8, 1), (16, 5)] {
            let pattern = KesshoEuclid.drumPattern(steps: steps, hits: hits, rotation: 0)
            let home = DrumLanes.Lane(pattern: pattern, targets: [.kick], probability: 1, level: 0.8, hits: hits, rotation: 0,
                                      velocities: pattern.map { _ in 0.8 }, chances: pattern.map { _ in 1 })
            var e = DrumLaneEvolution(seed: 3, lane: 0)
            var moved = 0
            for _ in 0..<3_000 {
                e.tick(intensity: 1, home: home)
                let lane = e.apply(to: home, homeHits: hits, homeRotation: 0)
                // Main hits sound at the level ± 0.5, ghost notes below 0.8 × 0.35.
                let main = lane.pattern.indices.filter { lane.pattern[$0] && lane.velocities[$0] >= 0.29 }.count
                XCTAssertTrue((1...steps).contains(main), "\(steps)/\(hits): \(main)")
                XCTAssertLessThanOrEqual(abs(main - hits), 2)
                XCTAssertLessThanOrEqual(abs(e.rotation), steps / 2)
                XCTAssertTrue((0...0.5).contains(lane.swing))
                XCTAssertTrue((-3...3).contains(e.pitch))
                XCTAssertTrue(lane.velocities.allSatisfy { (0...1).contains($0) })
                XCTAssertTrue(lane.chances.allSatisfy { (0.5...1).contains($0) })
                XCTAssertTrue(lane.pattern.contains(true))
                XCTAssertTrue(lane.ratchets.allSatisfy { (1...4).contains($0) })
                XCTAssertTrue(lane.morphShifts.allSatisfy { (-0.5...0.5).contains($0) })
                if lane.pattern != pattern { moved += 1 }
            }
            XCTAssertGreaterThan(moved, 300, "\(steps)/\(hits)")
            for _ in 0..<16 { e.tick(intensity: 0, home: home) }
            XCTAssertTrue(e.isHome, "\(e)")
        }
    }
}

