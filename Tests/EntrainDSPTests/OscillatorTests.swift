import EntrainDSP
import TestSupport
import XCTest

final class OscillatorTests: XCTestCase {
    func render(_ waveform: Waveform, frequency: Double, sampleRate: Double, seconds: Double = 1) -> [Float] {
        let bank = WavetableBank.shared(sampleRate: sampleRate)
        var oscillator = Oscillator()
        return (0..<Int(seconds * sampleRate)).map { _ in
            defer { oscillator.advance(frequency: frequency, inverseRate: 1 / sampleRate) }
            return oscillator.value(waveform, frequency: frequency, bank: bank)
        }
    }

    /// Every waveform at the top of the carrier range: anything that is not a harmonic of the
    /// fundamental is aliasing, and must be at least 60 dB down. A naive (non band-limited)
    /// square or saw puts aliases around -30 dB here and fails.
    func testNoAudibleAliasingAt1500Hz() {
        // 44.1 kHz and a frequency that does not divide 48 kHz, so aliases fall between harmonics.
        for (rate, f) in [(44_100.0, 1500.0), (48_000.0, 1487.0)] {
            for waveform in Waveform.allCases {
                let spectrum = Spectrum(render(waveform, frequency: f, sampleRate: rate), sampleRate: rate)
                let fundamental = spectrum.peak(from: f - 10, to: f + 10)
                XCTAssertEqual(fundamental.frequency, f, accuracy: 0.05)
                let harmonics = (1...Int(rate / 2 / f)).map { Double($0) * f }
                let alias = spectrum.largest(excluding: harmonics, guardHz: 8, from: 20, to: rate / 2 - 20)
                let below = Measure.decibels(fundamental.magnitude / alias.magnitude)
                XCTAssertGreaterThan(below, 60, "\(waveform) at \(f) Hz, \(rate) Hz: alias at \(alias.frequency) Hz only \(below) dB down")
            }
        }
    }

    func testWaveformsKeepTheirShape() {
        // Band-limited square: harmonic 3 at 1/3 of the fundamental; triangle: 1/9; saw: 1/2 at harmonic 2.
        let f = 220.0, rate = 48_000.0
        let expected: [(Waveform, Double, Double)] = [(.square, 3, 1.0 / 3), (.triangle, 3, 1.0 / 9), (.saw, 2, 0.5)]
        for (waveform, k, ratio) in expected {
            let spectrum = Spectrum(render(waveform, frequency: f, sampleRate: rate), sampleRate: rate)
            let h1 = spectrum.peak(from: f - 5, to: f + 5).magnitude
            let hk = spectrum.peak(from: k * f - 5, to: k * f + 5).magnitude
            XCTAssertEqual(hk / h1, ratio, accuracy: ratio * 0.02, "\(waveform)")
        }
    }

    func testPhaseStaysContinuousThroughFrequencyJumps() {
        let rate = 48_000.0
        let bank = WavetableBank.shared(sampleRate: rate)
        var oscillator = Oscillator()
        var samples: [Float] = []
        for i in 0..<48_000 {
            let f = i < 24_000 ? 200.0 : 1200.0  // an abrupt frequency change
            samples.append(oscillator.value(.sine, frequency: f, bank: bank))
            oscillator.advance(frequency: f, inverseRate: 1 / rate)
        }
        // The biggest step a 1200 Hz sine can take per sample is 2π·1200/48000 ≈ 0.157.
        XCTAssertLessThan(Measure.largestJump(samples[...]), 0.158)
    }
}
