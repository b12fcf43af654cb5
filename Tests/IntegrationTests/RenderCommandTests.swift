import Foundation
import TestSupport
import XCTest

/// `entrain render` end to end: the real binary writes a WAV that contains what was asked for.
final class RenderCommandTests: XCTestCase {
    func testRenderWritesTheRequestedBinauralSession() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try EntrainBinary.run(["render", "--duration", "12", "--rate", "44100", "--carrier", "250",
                                            "--beat", "4", "--noise", "brown", "--noise-level", "0.2",
                                            "--format", "24", "--out", out.path])
        XCTAssertEqual(result.status, 0, result.error)
        let file = try WAVFile(contentsOf: out)
        XCTAssertEqual(file.sampleRate, 44_100)
        XCTAssertEqual(file.bitsPerSample, 24)
        XCTAssertEqual(file.samples[0].count, 12 * 44_100)
        let middle = Array(file.samples[0][(3 * 44_100)..<(9 * 44_100)])
        let right = Array(file.samples[1][(3 * 44_100)..<(9 * 44_100)])
        XCTAssertEqual(Spectrum(middle, sampleRate: 44_100).peak(from: 200, to: 300).frequency, 250, accuracy: 0.05)
        XCTAssertEqual(Spectrum(right, sampleRate: 44_100).peak(from: 200, to: 300).frequency, 254, accuracy: 0.05)
        // Fades: silent start, silent end, full level in between.
        XCTAssertLessThan(Measure.peak(file.samples[0][0..<100]), 0.001)
        XCTAssertLessThan(Measure.peak(file.samples[0].suffix(200)[...]), 0.001)
        XCTAssertGreaterThan(Measure.peak(middle), 0.45)
    }
}
