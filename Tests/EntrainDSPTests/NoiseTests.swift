import EntrainDSP
import TestSupport
import XCTest

final class NoiseTests: XCTestCase {
    func samples(_ color: NoiseColor, count: Int = 480_000) -> [Float] {
        var generator = StereoNoise(leftSeed: 11, rightSeed: 12)
        return (0..<count).map { _ in
            let n = generator.next()
            return [n.white, n.pink, n.brown][color.rawValue].x
        }
    }

    func testEveryColourHasTheSameLoudness() {
        for color in NoiseColor.allCases {
            let rms = Measure.rms(samples(color)[4800...])
            XCTAssertEqual(Measure.decibels(rms / Double(StereoNoise.targetRMS)), 0, accuracy: 0.5, "\(color)")
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

    /// The SIMD lanes run the scalar generator's exact sequence, and the ears are independent.
    func testLanesAreIndependentStreamsOfTheScalarGenerator() {
        var stereo = StereoNoise(leftSeed: 5, rightSeed: 6)
        var left = RandomSource(seed: 5), right = RandomSource(seed: 6)
        var sumLR = 0.0, sumLL = 0.0
        for _ in 0..<100_000 {
            let w = stereo.next(.white) / 0.4330
            XCTAssertEqual(w.x, left.nextBipolar(), accuracy: 1e-6)
            XCTAssertEqual(w.y, right.nextBipolar(), accuracy: 1e-6)
            sumLR += Double(w.x * w.y)
            sumLL += Double(w.x * w.x)
        }
        XCTAssertLessThan(abs(sumLR / sumLL), 0.02, "left and right must be uncorrelated")
    }
}
