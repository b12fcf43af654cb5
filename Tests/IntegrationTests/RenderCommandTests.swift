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

    /// An SBaGen file rendered through the real binary: prog-tape-3 at 3:05 is half-way from
    /// t00 (300±4) to t01 (275±3): carrier 287.5, beat 7, so left 291 Hz and right 284 Hz.
    func testSBaGenFileRendersAsSBaGenPlaysIt() throws {
        let sbg = EntrainBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/sbg/prog-tape-3.sbg")
        guard FileManager.default.fileExists(atPath: sbg.path) else { throw XCTSkip("fixtures not beside the project") }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tape-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try EntrainBinary.run(["render", "--session", sbg.path, "--rate", "8000", "--out", out.path])
        XCTAssertEqual(result.status, 0, result.error)
        let file = try WAVFile(contentsOf: out)
        XCTAssertEqual(Double(file.samples[0].count) / 8000, 1805, accuracy: 0.01, "30 min 5 s")
        let at = 185 * 8000, half = 4000
        let left = Spectrum(Array(file.samples[0][(at - half)..<(at + half)]), sampleRate: 8000).peak(from: 270, to: 310)
        let right = Spectrum(Array(file.samples[1][(at - half)..<(at + half)]), sampleRate: 8000).peak(from: 270, to: 310)
        XCTAssertEqual(left.frequency, 291, accuracy: 0.3)
        XCTAssertEqual(right.frequency, 284, accuracy: 0.3)
    }
}
