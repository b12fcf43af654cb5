import EntrainDSP
import XCTest

final class TargetEnvelopeTests: XCTestCase {
    let rate = 48_000.0

    func testOneTimeConstantCoversOneMinusOneOverE() {
        var env = TargetEnvelope(value: 0, sampleRate: rate)
        defer { env.deallocate() }
        let tau = 0.25
        env.setTarget(1, timeConstant: tau, atFrame: 100)
        for _ in 0..<100 { XCTAssertEqual(env.next(), 0) }  // nothing before the start frame
        XCTAssertEqual(env.next(), 0)  // v(t0) = 0
        for _ in 1..<Int(tau * rate) { _ = env.next() }
        XCTAssertEqual(env.next(), 1 - exp(-1.0), accuracy: 0.005 * (1 - exp(-1.0)))
    }

    func testFactorMatchesLibm() {
        for tau in [0.001, 0.05, 1.0, 30.0] {
            XCTAssertEqual(TargetEnvelope.factor(timeConstant: tau, sampleRate: rate),
                           exp(-1 / (tau * rate)), accuracy: 1e-13)
        }
        XCTAssertEqual(TargetEnvelope.factor(timeConstant: 0, sampleRate: rate), 0)
    }

    func testAttackDecayReachesSustain() {
        let adsr = PadEnvelope(attack: 0.6, decay: 0.3, sustain: 0.8, release: 1.2)
        var env = TargetEnvelope(value: 0, sampleRate: rate)
        defer { env.deallocate() }
        env.scheduleAttack(adsr, atFrame: 0)
        var values: [Double] = []
        let end = Int((adsr.attack + 5 * adsr.decay / 3) * rate)
        for _ in 0...end { values.append(env.next()) }
        // Attack reaches 1 − e^−3 at t = A (τ = A/3).
        XCTAssertEqual(values[Int(adsr.attack * rate)], 1 - exp(-3.0), accuracy: 1e-3)
        XCTAssertEqual(values[end], adsr.sustain, accuracy: 0.01 * adsr.sustain)
    }

    func testReleaseUsesAQuarterOfR() {
        var env = TargetEnvelope(value: 0.8, sampleRate: rate)
        defer { env.deallocate() }
        let adsr = PadEnvelope(attack: 1, decay: 1, sustain: 0.8, release: 2)
        env.scheduleRelease(adsr, atFrame: 0)
        let tauFrames = Int(adsr.release / 4 * rate)
        for _ in 0..<tauFrames { _ = env.next() }
        XCTAssertEqual(env.next(), 0.8 * exp(-1.0), accuracy: 0.8 * exp(-1.0) * 0.005)
        for _ in 0..<(tauFrames * 40) { _ = env.next() }
        XCTAssertEqual(env.value, 0, accuracy: 1e-12)
    }

    func testCrossfadeRestartsAtHalfRelease() {
        var env = TargetEnvelope(value: 1, sampleRate: rate)
        defer { env.deallocate() }
        let adsr = PadEnvelope(attack: 0.6, decay: 0.3, sustain: 0.5, release: 1.2)
        let restart = env.scheduleCrossfade(adsr, atFrame: 0)
        XCTAssertEqual(restart, Int64(0.6 * rate))
        var low = 2.0
        for _ in 0...Int(restart) { low = min(low, env.next()) }
        XCTAssertEqual(low, exp(-2.0), accuracy: 0.001)  // R/2 into a τ = R/4 release
        for _ in 0..<Int(0.6 * rate) { _ = env.next() }
        XCTAssertGreaterThan(env.value, 0.9)
    }

    func testCancelAndFullQueue() {
        var env = TargetEnvelope(value: 0, sampleRate: rate)
        defer { env.deallocate() }
        for i in 0..<TargetEnvelope.capacity {
            XCTAssertTrue(env.setTarget(Double(i), timeConstant: 0, atFrame: Int64(10 + i)))
        }
        XCTAssertFalse(env.setTarget(99, timeConstant: 0, atFrame: 1))
        env.cancel(fromFrame: 12)
        XCTAssertEqual(env.pendingEvents, 2)
        for _ in 0..<20 { _ = env.next() }
        XCTAssertEqual(env.value, 1)
    }
}
