import EntrainDSP
import Foundation
import XCTest

/// Web Audio biquads measured with sine waves: gain in dB at chosen frequencies.
final class WebAudioBiquadTests: XCTestCase {
    /// RMS out over RMS in on the steady second half (a sampled peak misreads high frequencies).
    func gain(_ filter: WebAudioBiquad, at frequency: Double, rate: Double = 48_000) -> Double {
        var f = filter
        var power = 0.0, reference = 0.0
        for i in 0..<Int(rate) {
            let x = Float(sin(2 * Double.pi * frequency * Double(i) / rate))
            let y = f.process(x)
            if i > Int(rate) / 2 { power += Double(y * y); reference += Double(x * x) }
        }
        return 10 * log10(power / reference)
    }

    /// Lowpass and highpass take Q in dB: at the cutoff the gain is Q dB (RBJ: |H(w0)| = Q).
    func testLowAndHighPassQIsInDecibels() {
        let lp = WebAudioBiquad(.lowpass, frequency: 1000, q: 1, sampleRate: 48_000)
        XCTAssertEqual(gain(lp, at: 1000), 1, accuracy: 0.05, "Web Audio's default Q 1 is +1 dB at the cutoff")
        XCTAssertEqual(gain(WebAudioBiquad(.lowpass, frequency: 1000, q: 12, sampleRate: 48_000), at: 1000), 12, accuracy: 0.1)
        XCTAssertEqual(gain(lp, at: 100), 0, accuracy: 0.1)
        XCTAssertLessThan(gain(lp, at: 8000), -34, "12 dB/octave: three octaves up is below -34 dB")
        let hp = WebAudioBiquad(.highpass, frequency: 200, q: 0, sampleRate: 48_000)
        XCTAssertEqual(gain(hp, at: 200), 0, accuracy: 0.05)
        XCTAssertEqual(gain(hp, at: 5000), 0, accuracy: 0.1)
        XCTAssertLessThan(gain(hp, at: 25), -34)
    }

    func testPeakingAndShelvesInDecibels() {
        let peak = WebAudioBiquad(.peaking, frequency: 3000, q: 0.8, gainDecibels: 6, sampleRate: 48_000)
        XCTAssertEqual(gain(peak, at: 3000), 6, accuracy: 0.05)
        XCTAssertEqual(gain(peak, at: 60), 0, accuracy: 0.1)
        let low = WebAudioBiquad(.lowshelf, frequency: 250, q: 99, gainDecibels: 8, sampleRate: 48_000)
        XCTAssertEqual(gain(low, at: 20), 8, accuracy: 0.2, "a shelf ignores Q")
        XCTAssertEqual(gain(low, at: 250), 4, accuracy: 0.1, "half the shelf gain at its frequency")
        XCTAssertEqual(gain(low, at: 10_000), 0, accuracy: 0.1)
        let high = WebAudioBiquad(.highshelf, frequency: 4000, q: 1, gainDecibels: -10, sampleRate: 48_000)
        XCTAssertEqual(gain(high, at: 16_000), -10, accuracy: 0.1)
        XCTAssertEqual(gain(high, at: 4000), -5, accuracy: 0.1)
        XCTAssertEqual(gain(high, at: 100), 0, accuracy: 0.1)
    }

    func testBandpassNotchAndAllpass() {
        XCTAssertEqual(gain(WebAudioBiquad(.bandpass, frequency: 1000, q: 2, sampleRate: 48_000), at: 1000), 0, accuracy: 0.05)
        XCTAssertLessThan(gain(WebAudioBiquad(.notch, frequency: 1000, q: 2, sampleRate: 48_000), at: 1000), -40)
        XCTAssertEqual(gain(WebAudioBiquad(.allpass, frequency: 1000, q: 2, sampleRate: 48_000), at: 3000), 0, accuracy: 0.05)
    }
}
