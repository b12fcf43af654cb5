import EntrainDSP
import TestSupport
import XCTest

final class NoiseTests: XCTestCase {
    func samples(_ color: NoiseColor, count: Int = 480_000) -> [Float] {
        var generator = NoiseGenerator(seed: 11)
        return (0..<count).map { _ in
            let n = generator.next()
            return [n.white, n.pink, n.brown][color.rawValue]
        }
    }

    func testEveryColourHasTheSameLoudness() {
        for color in NoiseColor.allCases {
            let rms = Measure.rms(samples(color)[4800...])
            XCTAssertEqual(Measure.decibels(rms / Double(NoiseGenerator.targetRMS)), 0, accuracy: 0.5, "\(color)")
        }
    }

    /// Average power per octave band: white rises 3 dB per octave band (bands double in width),
    /// pink is flat per octave, brown falls 3 dB per octave band.
    func testSpectralSlopes() {
        let rate = 48_000.0
        func bandPower(_ spectrum: Spectrum, _ low: Double) -> Double {
            (spectrum.bin(of: low)..<spectrum.bin(of: 2 * low)).reduce(0) { $0 + spectrum.magnitudes[$1] * spectrum.magnitudes[$1] }
        }
        for (color, perOctave) in [(NoiseColor.white, 3.0), (.pink, 0.0), (.brown, -3.0)] {
            let spectrum = Spectrum(samples(color), sampleRate: rate, window: .hann)
            let change = 10 * log10(bandPower(spectrum, 3200) / bandPower(spectrum, 200)) / 4
            XCTAssertEqual(change, perOctave, accuracy: 0.5, "\(color): \(change) dB per octave band")
        }
    }

    func testSameSeedSameNoise() {
        XCTAssertEqual(samples(.pink, count: 1000), samples(.pink, count: 1000))
    }
}
