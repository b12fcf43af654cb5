import EntrainHRV
import XCTest

/// The reference's trajectory trace (T1): fixed metrics per tick through the phase space, the
/// modes and the movement annotation.
final class TrajectoryParityTests: XCTestCase {
    static func fixture(_ ent: Double, _ breath: Double?, _ amp: Double, _ steady: Bool, _ vol: Double, _ calm: Double) -> HRVUpdate.Metrics {
        HRVUpdate.Metrics(amplitude: amp, entrainment: Entrainment(coupling: ent, value: ent, label: Entrainment.label(ent)),
                          breath: BreathEstimate(rate: breath, steady: steady), volatility: vol, calm: calm, calmLabel: CalmScore.label(calm))
    }
    static let calm = fixture(0.75, 6, 160, true, 0.04, 0.85)
    static let trans = fixture(0.35, 10, 150, false, 0.08, 0.45)
    static let alert = fixture(0.1, nil, 450, false, 0.15, 0.15)

    func testTrajectoryTrace() {
        let sequence = [Self.calm, Self.calm, Self.trans, Self.alert, Self.alert, Self.trans] + Array(repeating: Self.calm, count: 6)
        var tracker = ModeTracker()
        var out: [(phase: PhaseTrajectory.Dynamics, mode: HRVUpdate.Mode)] = []
        for (t, m) in sequence.enumerated() { out.append(tracker.track(m, at: Double(t))) }
        let e = 1e-6

        for t in 0...1 {
            XCTAssertEqual(out[t].phase.label, "warming up")
            XCTAssertEqual(out[t].phase.speed, 0)
            XCTAssertEqual(out[t].phase.stability, 0.5)
            XCTAssertEqual(out[t].mode.soft.primaryLabel, "settled presence")
            XCTAssertEqual(out[t].mode.annotation, "insufficient data")
        }
        XCTAssertEqual(out[0].phase.position, [0.75, 0.125, 0.8])
        let rows: [(Int, Double, Double, Double, Double, String, String, String)] = [
            (2, 0.474342, 0.474342, 0.412707, 0.474342, "inflection (seeking)", "transitional", "decelerating"),
            (3, 0.375, 0.357946, 0.474396, 0.566228, "inflection (seeking)", "subtle alertness", "accelerating"),
            (4, 0, 0.375, 0.727273, 0.424671, "inflection (seeking)", "subtle alertness", "still from transitional"),
            (6, 0.474342, 0.357946, 0.433533, 0.566228, "inflection (from entrainment)", "settled presence", "accelerating from subtle alertness"),
            (7, 0, 0.474342, 0.678269, 0.485338, "inflection (from entrainment)", "settled presence", "still from transitional"),
            (8, 0, 0, 1.0, 0.424671, "entrained dwelling", "settled presence", "still from transitional"),
            (11, 0, 0, 1.0, 0.308852, "entrained dwelling", "settled presence", "settled"),
        ]
        for (t, speed, curvature, stability, signature, label, soft, annotation) in rows {
            let (p, m) = out[t]
            XCTAssertEqual(p.speed, speed, accuracy: e, "t=\(t) |v|")
            XCTAssertEqual(p.curvature, curvature, accuracy: e, "t=\(t) curvature")
            XCTAssertEqual(p.stability, stability, accuracy: e, "t=\(t) stability")
            XCTAssertEqual(p.historySignature, signature, accuracy: e, "t=\(t) history signature")
            XCTAssertEqual(p.label, label, "t=\(t)")
            XCTAssertEqual(m.soft.primaryLabel, soft, "t=\(t)")
            XCTAssertEqual(m.annotation, annotation, "t=\(t)")
        }
        XCTAssertEqual(out[2].phase.velocity[0], -0.4, accuracy: e)
        XCTAssertEqual(out[2].phase.velocity[1], 0.25, accuracy: e)
        XCTAssertEqual(out[6].phase.coherence, 0, "fewer than lag + 3 states")
        XCTAssertEqual(out[7].phase.coherence, 0.25, accuracy: e)
        XCTAssertEqual(out[8].phase.coherence, 0.25, accuracy: e)
        XCTAssertEqual(out[11].mode.movementLabel, out[11].mode.reported.mode, "settled: the mode alone")
    }

    func testStillnessAndTwoPointAlternationBothCountAsDwelling() {
        var still = ModeTracker(), alternating = ModeTracker()
        var a = 0.0, b = 0.0, signature = 1.0
        for t in 0..<20 {
            a = still.track(Self.calm, at: Double(t)).phase.coherence
            b = alternating.track(t % 2 == 0 ? Self.calm : Self.alert, at: Double(t)).phase.coherence
        }
        XCTAssertEqual(a, 0.8, accuracy: 1e-12)
        XCTAssertEqual(b, 0.8, accuracy: 1e-12, "constant step sizes")
        var long = ModeTracker()
        for t in 0..<120 { signature = long.track(Self.calm, at: Double(t)).phase.historySignature }
        XCTAssertLessThan(signature, 0.5)
        XCTAssertEqual(PhaseTrajectory.label(entrainment: 0.4, speed: 0.05, curvature: 0.1, stability: 0.65), "neutral dwelling")
    }

    /// Our hysteresis keeps the status a change sets (the reference's Python resets it), so a
    /// mode held long enough becomes established and then needs the exit threshold to leave.
    func testHysteresisEstablishesAndHolds() {
        var h = ModeHysteresis()
        XCTAssertEqual(h.update(proposed: "settling", membership: 0.1, at: 0).mode, "transitional", "below entry: nothing entered")
        let entered = h.update(proposed: "settling", membership: 0.3, at: 1)
        XCTAssertEqual(entered.mode, "settling")
        XCTAssertEqual(entered.status, .provisional)
        XCTAssertEqual(entered.confidence, 0.3 * 0.8, accuracy: 1e-12, "the entry penalty")
        _ = h.update(proposed: "settling", membership: 0.3, at: 2)
        XCTAssertEqual(h.update(proposed: "settling", membership: 0.3, at: 4).status, .established, "3 s provisional")
        let held = h.update(proposed: "transitional", membership: 0.2, at: 5)
        XCTAssertEqual(held.mode, "settling", "below settling's exit (0.25): held")
        XCTAssertEqual(held.confidence, 0.9 * 0.25, accuracy: 1e-12)
        let bonus = h.update(proposed: "settling", membership: 0.3, at: 12)
        XCTAssertEqual(bonus.confidence, 0.33, accuracy: 1e-12, "the settled bonus after 10 s")
        let left = h.update(proposed: "transitional", membership: 0.3, at: 13)
        XCTAssertEqual(left.mode, "transitional")
        XCTAssertEqual(left.status, .provisional, "a change keeps its status")
        XCTAssertEqual(left.previous, "settling")
        XCTAssertEqual(h.update(proposed: "transitional", membership: 0.3, at: 15).status, .established)
    }
}
