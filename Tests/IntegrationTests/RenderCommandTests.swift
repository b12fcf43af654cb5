import EntrainEngine
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

    /// SBaGen's plain change, heard: the old tone fades out over the 30 s before the change at
    /// constant pitch, the new one fades up over the 30 s after it (measured in the rendered audio).
    func testSBaGenPlainChangeFadesAroundTheChangeInTheAudio() throws {
        let sbg = FileManager.default.temporaryDirectory.appendingPathComponent("change-\(UUID().uuidString).sbg")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("change-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: sbg); try? FileManager.default.removeItem(at: out) }
        try "-SE\ntheta6: 200+6/20\nalpha8: 210+8/20\n11:00 theta6\n11:02 alpha8\n11:04 theta6\n"
            .write(to: sbg, atomically: true, encoding: .utf8)
        let result = try EntrainBinary.run(["render", "--session", sbg.path, "--rate", "8000", "--fade-in", "0", "--out", out.path])
        XCTAssertEqual(result.status, 0, result.error)
        let left = try WAVFile(contentsOf: out).samples[0]
        func peak(at seconds: Double) -> Float { Measure.peak(left[Int(seconds * 8000)..<Int((seconds + 0.25) * 8000)]) }
        func pitch(at seconds: Double) -> Double {
            Spectrum(Array(left[Int(seconds * 8000)..<Int((seconds + 2) * 8000)]), sampleRate: 8000).peak(from: 190, to: 230).frequency
        }
        let change = 120.0
        XCTAssertEqual(Double(peak(at: change - 60)), 0.2, accuracy: 0.01, "before the window: full level")
        XCTAssertEqual(Double(peak(at: change - 15)), 0.1, accuracy: 0.01, "half-way down")
        XCTAssertLessThan(peak(at: change - 0.125), 0.003, "silent at the change")
        XCTAssertEqual(Double(peak(at: change + 15)), 0.1, accuracy: 0.01, "half-way up")
        XCTAssertEqual(Double(peak(at: change + 45)), 0.2, accuracy: 0.01)
        XCTAssertEqual(pitch(at: change - 20), 203, accuracy: 0.3, "the old tone (left = 200 + 6/2) keeps its pitch while fading")
        XCTAssertEqual(pitch(at: change + 20), 214, accuracy: 0.3, "the new tone (210 + 8/2)")
    }
}
