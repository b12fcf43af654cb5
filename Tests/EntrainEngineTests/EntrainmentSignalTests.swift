import EntrainEngine
import TestSupport
import XCTest

/// What the entrainment plugin plays, measured from 10 s renders.
final class EntrainmentSignalTests: XCTestCase {
    func testBinauralPutsCarrierLeftAndCarrierPlusBeatRight() throws {
        let host = try TestEngine.host(["/entrain/carrier": "200", "/entrain/beat": "10"])
        let (l, r) = TestEngine.render(host, seconds: 10)
        let left = Spectrum(l, sampleRate: 48_000).peak(from: 150, to: 260)
        let right = Spectrum(r, sampleRate: 48_000).peak(from: 150, to: 260)
        XCTAssertEqual(left.frequency, 200, accuracy: 0.05)
        XCTAssertEqual(right.frequency, 210, accuracy: 0.05)
        // Each ear hears one tone only: the other ear's tone is absent (> 60 dB down).
        let leak = Spectrum(l, sampleRate: 48_000).peak(from: 209, to: 211).magnitude
        XCTAssertGreaterThan(Measure.decibels(left.magnitude / leak), 60)
    }

    func testCenteredConventionSplitsTheBeatAroundTheCarrier() throws {
        let host = try TestEngine.host(["/entrain/carrier": "300", "/entrain/beat": "7.83", "/entrain/convention": "centered"])
        let (l, r) = TestEngine.render(host, seconds: 10)
        XCTAssertEqual(Spectrum(l, sampleRate: 48_000).peak(from: 250, to: 350).frequency, 303.915, accuracy: 0.05)
        XCTAssertEqual(Spectrum(r, sampleRate: 48_000).peak(from: 250, to: 350).frequency, 296.085, accuracy: 0.05)
    }

    func testMonauralBeatsAtTheBeatRateInBothEars() throws {
        let host = try TestEngine.host(["/entrain/mode": "monaural", "/entrain/carrier": "180", "/entrain/beat": "6.5"])
        let (l, r) = TestEngine.render(host, seconds: 10)
        XCTAssertNil(Measure.firstDifference(l, r), "both ears must be identical")
        XCTAssertEqual(Measure.envelopeRate(l, sampleRate: 48_000, from: 1, to: 60), 6.5, accuracy: 0.05)
    }

    func testIsochronicPulsesAtTheRateWithTheDutyCycle() throws {
        for (rate, duty) in [(10.0, 0.5), (40.0, 0.3), (2.5, 0.7)] {
            let host = try TestEngine.host(["/entrain/mode": "isochronic", "/entrain/carrier": "400", "/entrain/volume": "0.8",
                                            "/entrain/beat": "\(rate)", "/entrain/duty": "\(duty)", "/entrain/edge": "0.08"])
            let (l, r) = TestEngine.render(host, seconds: 10)
            XCTAssertNil(Measure.firstDifference(l, r), "both ears must be identical")
            XCTAssertEqual(Measure.envelopeRate(l, sampleRate: 48_000, from: 1, to: 100), rate, accuracy: 0.05)
            // Power of a gated sine relative to the continuous tone is the mean of gate²: for
            // raised-cosine edges of e periods each, duty - 1.25·e. A wrong duty or edge shows here.
            let continuous = 0.8 * 0.8 / 2
            let measured = pow(Measure.rms(l[...]), 2) / continuous
            XCTAssertEqual(measured, duty - 1.25 * 0.08, accuracy: 0.01, "rate \(rate) Hz, duty \(duty)")
            // Smooth edges: no step larger than the 400 Hz carrier itself can make.
            XCTAssertLessThan(Measure.largestJump(l[...]), Float(0.8 * 2 * Double.pi * 400 / 48_000 * 1.05))
        }
    }

    func testNoiseBedIsMixedUnderTheTone() throws {
        let host = try TestEngine.host(["/entrain/noise": "pink", "/entrain/noise/level": "0.5", "/entrain/volume": "0.5"])
        let (l, r) = TestEngine.render(host, seconds: 4)
        XCTAssertTrue(l != r, "independent noise per ear")
        let tone = Spectrum(l, sampleRate: 48_000).peak(from: 190, to: 210)
        XCTAssertEqual(tone.frequency, 200, accuracy: 0.05)
        // Tone RMS 0.5/√2, noise RMS 0.25 · 0.5 · 0.5: the powers add.
        XCTAssertEqual(Measure.rms(l[48_000...]), (0.125 + 0.003_906_25).squareRoot(), accuracy: 0.01)
    }

    func testSeveralVoicesPlayAtOnce() throws {
        let host = try TestEngine.host(["/entrain/carrier": "200", "/entrain/volume": "0.3",
                                        "/entrain/voice/2/level": "1", "/entrain/voice/2/carrier": "500",
                                        "/entrain/voice/2/beat": "4"])
        let (l, r) = TestEngine.render(host, seconds: 10)
        let sl = Spectrum(l, sampleRate: 48_000), sr = Spectrum(r, sampleRate: 48_000)
        XCTAssertEqual(sl.peak(from: 150, to: 250).frequency, 200, accuracy: 0.05)
        XCTAssertEqual(sl.peak(from: 450, to: 550).frequency, 500, accuracy: 0.05)
        XCTAssertEqual(sr.peak(from: 450, to: 550).frequency, 504, accuracy: 0.05)
    }
}
