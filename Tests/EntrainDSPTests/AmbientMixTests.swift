import EntrainDSP
import Foundation
import XCTest

/// The ambient routing measured: what reaches the master from a pad tone, per path.
final class AmbientMixTests: XCTestCase {
    /// RMS of the master over seconds 1…3 for a 220 Hz pad tone at 0.3.
    func masterRMS(_ levels: AmbientMix.Levels, seconds: Double = 3) -> Double {
        var mix = AmbientMix(sampleRate: 48_000, seed: 7, quality: .lite, levels: levels)
        defer { mix.deallocate() }
        var sum = 0.0, count = 0
        for i in 0..<Int(seconds * 48_000) {
            let x = Float(0.3 * sin(2 * Double.pi * 220 * Double(i) / 48_000))
            let (l, r) = mix.process(x, x)
            XCTAssertTrue(l.isFinite && r.isFinite)
            if i >= 48_000 { sum += Double(l * l + r * r) / 2; count += 1 }
        }
        return (sum / Double(count)).squareRoot()
    }

    static var dryOnly: AmbientMix.Levels {
        var l = AmbientMix.Levels()
        l.granularEnabled = false
        l.reverbEnabled = false
        l.masterVolume = 1
        l.synthLevel = 1
        return l
    }

    func testDryPathCarriesSynthLevelTimesMaster() {
        var l = Self.dryOnly
        XCTAssertEqual(masterRMS(l), 0.3 / 2.squareRoot(), accuracy: 0.002)
        l.synthLevel = 0.5
        l.masterVolume = 0.5
        XCTAssertEqual(masterRMS(l), 0.25 * 0.3 / 2.squareRoot(), accuracy: 0.001)
    }

    /// Disabling reverb or granular removes their paths; enabling them adds energy.
    func testDisabledEnginesAddNothing() {
        var silentDry = Self.dryOnly
        silentDry.synthLevel = 0
        XCTAssertEqual(masterRMS(silentDry), 0, accuracy: 1e-6, "no dry, no reverb, no granular: silence")
        var reverbOnly = silentDry
        reverbOnly.reverbEnabled = true
        XCTAssertGreaterThan(masterRMS(reverbOnly), 0.01, "the reverb return carries the pad's send")
        var granularOnly = silentDry
        granularOnly.granularEnabled = true
        let granular = masterRMS(granularOnly)
        XCTAssertGreaterThan(granular, 0.002, "the granular wet path reaches the master")
        granularOnly.granularLevel = 0.8
        XCTAssertEqual(masterRMS(granularOnly) / granular, 2, accuracy: 0.01, "granularLevel scales it linearly")
    }

    /// The ocean synth reaches the master only when enabled, and its filter shapes it.
    func testOceanThroughItsFilter() {
        var l = Self.dryOnly
        l.synthLevel = 0
        XCTAssertEqual(masterRMS(l, seconds: 6), 0, accuracy: 1e-6)
        l.oceanWaveSynthEnabled = true
        l.oceanWaveSynthLevel = 1
        let open = masterRMS(l, seconds: 6)
        XCTAssertGreaterThan(open, 0.005)
        l.oceanFilterCutoff = 60
        XCTAssertLessThan(masterRMS(l, seconds: 6), open * 0.7, "a 60 Hz low-pass takes most of the surf")
    }
}
