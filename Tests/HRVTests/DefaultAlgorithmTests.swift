import EntrainHRV
import Foundation
import TestSupport
import XCTest

/// Our default algorithm on realistic series (breathing plus several ms of beat-to-beat noise,
/// Tests/Fixtures/hrv): breathing rate within 5 %, slow resonance breathing scored high,
/// coherence high with a rhythm and low without. Also where the reference algorithm fails on
/// the same series, so the fix is measured, not assumed.
final class DefaultAlgorithmTests: XCTestCase {
    func series(_ name: String) throws -> [Double] {
        try ReferenceVectors.fixture(name)
    }

    /// Every update after the first `settle` seconds, as `entrain hrv replay` makes them.
    func replay(_ rr: [Double], _ algorithm: HRVSettings.Algorithm = .standard, settle: Double = 64) -> [HRVUpdate] {
        var pipeline = HRVPipeline(settings: HRVSettings(algorithm: algorithm))
        var t = 0.0, out: [HRVUpdate] = []
        for r in rr {
            t += r / 1000
            if let u = pipeline.ingest([r], at: t), t >= settle { out.append(u) }
        }
        return out
    }

    func testResonanceBreathingWithNoise() throws {
        let updates = replay(try series("resonance-6-per-min"))
        XCTAssertGreaterThan(updates.count, 150)
        let rates = updates.map { $0.metrics.breath.rate ?? 0 }
        let worst = rates.map { abs($0 - 6) / 6 }.max()!
        print("6/min: breath \(rates.min()!)…\(rates.max()!), coherence ≥ \(updates.map(\.coherence).min()!), entrainment ≥ \(updates.map(\.metrics.entrainment.value).min()!)")
        XCTAssertLessThan(worst, 0.05, "every update within 5 % of 6 breaths/min")
        XCTAssertGreaterThan(updates.map(\.coherence).min()!, 0.7)
        XCTAssertGreaterThan(updates.map(\.metrics.entrainment.value).min()!, 0.6, "slow breathing scores high")
        XCTAssertTrue(updates.allSatisfy(\.metrics.breath.steady))
        XCTAssertTrue(updates.suffix(100).allSatisfy { ["rhythmic settling", "settled presence"].contains($0.mode.reported.mode) })

        // The reference on the same beats: lags 4–8 miss the 10-beat cycle, and its peak count
        // misses the 5 %.
        let reference = replay(try series("resonance-6-per-min"), .reference)
        let referenceEntrainment = reference.map(\.metrics.entrainment.value).reduce(0, +) / Double(reference.count)
        let referenceWorst = reference.map { abs(($0.metrics.breath.rate ?? 0) - 6) / 6 }.max()!
        print("6/min: worst error ours \(worst), reference \(referenceWorst); reference entrainment mean \(referenceEntrainment)")
        XCTAssertLessThan(referenceEntrainment, 0.4)
        XCTAssertGreaterThan(referenceWorst, 0.05)
    }

    func testTwelvePerMinuteWithNoise() throws {
        let updates = replay(try series("breathing-12-per-min"))
        let worst = updates.map { abs(($0.metrics.breath.rate ?? 0) - 12) / 12 }.max()!
        XCTAssertLessThan(worst, 0.05)
        XCTAssertGreaterThan(updates.map(\.coherence).min()!, 0.6)
        // Noise makes extra RR peaks: the reference's peak count misses the 5 % on the same beats.
        let reference = replay(try series("breathing-12-per-min"), .reference)
        let referenceWorst = reference.map { abs(($0.metrics.breath.rate ?? 0) - 12) / 12 }.max()!
        print("12/min: worst error ours \(worst), reference \(referenceWorst)")
        XCTAssertGreaterThan(referenceWorst, 0.05)
    }

    func testNoRhythmGivesLowCoherence() throws {
        let updates = replay(try series("no-rhythm"))
        let coherence = updates.map(\.coherence)
        let mean = coherence.reduce(0, +) / Double(coherence.count)
        print("no rhythm: coherence mean \(mean), max \(coherence.max()!), entrainment max \(updates.map(\.metrics.entrainment.value).max()!)")
        // Noise alone puts about a third of the band's power around its highest bin in 64 s
        // (the window holds only some 14 independent bins there): well below a rhythm's 0.85+.
        XCTAssertLessThan(mean, 0.4)
        XCTAssertLessThan(coherence.max()!, 0.6)
        XCTAssertFalse(updates.contains { $0.mode.reported.mode == "settled presence" })
    }

    func testSpectralCoherenceOfAPureOscillation() {
        // A clean 0.1 Hz swing: one peak at 0.1 Hz holding nearly all the power.
        var rr: [Double] = [], t = 0.0
        while t < 64 { let r = 1000 + 80 * sin(2 * Double.pi * 0.1 * t); rr.append(r); t += r / 1000 }
        let c = SpectralCoherence(RRSpectrum(rr)!)
        XCTAssertEqual(c.peakFrequency, 0.1, accuracy: 0.003)
        XCTAssertGreaterThan(c.coherence, 0.85, "the Hann window's main lobe is wider than ±0.015 Hz")
        XCTAssertGreaterThan(c.ratio, 10)
    }
}
