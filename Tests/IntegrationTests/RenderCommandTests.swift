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

    /// An SBaGen file of ours rendered through the real binary: at 5:10 glide-from-silence is
    /// half-way from a12 (320±6) to a8 (290±4): carrier 305, beat 10, so left 310 Hz and right 300 Hz.
    func testSBaGenFileRendersAsSBaGenPlaysIt() throws {
        let sbg = Fixtures.ours("sbg").appendingPathComponent("glide-from-silence.sbg")
        let (left, right) = try renderAndMeasure(sbg, seconds: 1690, at: 310, band: 280...330)
        XCTAssertEqual(left, 310, accuracy: 0.3)
        XCTAssertEqual(right, 300, accuracy: 0.3)
    }

    /// A peer's original: prog-tape-3 at 3:05 is half-way from t00 (300±4) to t01 (275±3):
    /// carrier 287.5, beat 7, so left 291 Hz and right 284 Hz.
    func testPeerSBaGenFileRendersAsSBaGenPlaysIt() throws {
        guard let folder = Fixtures.peers("sbg") else { throw XCTSkip(Fixtures.peersAbsent("sbg")) }
        let (left, right) = try renderAndMeasure(folder.appendingPathComponent("prog-tape-3.sbg"), seconds: 1805, at: 185, band: 270...310)
        XCTAssertEqual(left, 291, accuracy: 0.3)
        XCTAssertEqual(right, 284, accuracy: 0.3)
    }

    /// Renders `sbg` at 8 kHz, checks its length, and returns each ear's strongest frequency in
    /// `band` over the second around `at`.
    func renderAndMeasure(_ sbg: URL, seconds: Double, at: Int, band: ClosedRange<Double>) throws -> (left: Double, right: Double) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("sbg-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try EntrainBinary.run(["render", "--session", sbg.path, "--rate", "8000", "--out", out.path])
        XCTAssertEqual(result.status, 0, result.error)
        let file = try WAVFile(contentsOf: out)
        XCTAssertEqual(Double(file.samples[0].count) / 8000, seconds, accuracy: 0.01)
        let centre = at * 8000, half = 4000
        func peak(_ channel: Int) -> Double {
            Spectrum(Array(file.samples[channel][(centre - half)..<(centre + half)]), sampleRate: 8000)
                .peak(from: band.lowerBound, to: band.upperBound).frequency
        }
        return (peak(0), peak(1))
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
