import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// The same `.sbg` (spinning noise, bells, a waveNN voice) rendered by SBaGenX and by entrain,
/// compared where the two programs agree on what the voice is: the spin's rate (the swing of the
/// level difference between the ears) within 0.05 Hz and the swing's size within 2 dB, the pink
/// noise's colour (its slope in dB per octave, 200–6400 Hz) within 1 dB/octave, the bell's pitch
/// within 1 Hz and its fade within 3 dB a second, the wave voice's two tones within 0.1 Hz.
/// Measured with SBaGenX 3.9.0-alpha.15 (docs/mix-input.md): spin 0.530/0.992 Hz against our
/// 0.500/1.000; pink −3.25 against −3.06 dB/octave. Not compared: brown noise (SBaGenX's falls
/// about 10 dB/octave, ours is true brown, 6), and the waveNN envelope, which we do not apply.
///
/// Needs SBaGenX: set SBAGENX_BIN to its binary (build it as scripts/bench-sbagenx.sh does, in a
/// folder outside the repository); without it the test skips and says so.
final class SBaGenPeerTests: XCTestCase {
    static let sbg = """
    -SE -F 500
    wave01: 0 2 5 2 0
    a: spin:300+0.5/40 bell+2050/20
    b: bspin:300+1/40 bell+3000/20
    c: wave01:200+4/30
    00:00 a
    00:00:12 b
    00:00:24 c
    00:00:36 c
    """

    func testSpinBellAndWaveMatchSBaGenX() throws {
        guard let peer = ProcessInfo.processInfo.environment["SBAGENX_BIN"], FileManager.default.isExecutableFile(atPath: peer) else {
            throw XCTSkip("SBaGenX not found: set SBAGENX_BIN to a binary built from its source (see scripts/bench-sbagenx.sh)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("voices.sbg")
        try Self.sbg.write(to: file, atomically: true, encoding: .utf8)
        let theirs = folder.appendingPathComponent("theirs.wav"), ours = folder.appendingPathComponent("ours.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: peer)
        process.arguments = ["-r", "48000", "-Wo", theirs.path, file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "sbagenx")
        let result = try EntrainBinary.run(["render", "--quiet", "--session", file.path, "--rate", "48000", "--fade-in", "0.01",
                                            "--out", ours.path])
        XCTAssertEqual(result.status, 0, result.error)
        let a = try WAVFile(contentsOf: theirs).samples, b = try WAVFile(contentsOf: ours).samples

        for (label, x) in [("SBaGenX", a), ("entrain", b)] {
            print("\(label): spin rates \(Self.spinRate(x, 1...11)) / \(Self.spinRate(x, 13...23)) Hz, slopes \(Self.slope(x, 2...10)) / \(Self.slope(x, 14...22)) dB/oct")
        }
        // Spin: the pink set turns at 0.5 Hz, the brown one at 1 Hz, in both.
        for (segment, rate) in [(1...11, 0.5), (13...23, 1.0)] {
            XCTAssertEqual(Self.spinRate(a, segment), rate, accuracy: 0.05, "SBaGenX \(segment)")
            XCTAssertEqual(Self.spinRate(b, segment), rate, accuracy: 0.05, "entrain \(segment)")
            XCTAssertEqual(Self.swing(b, segment), Self.swing(a, segment), accuracy: 2, "how far it swings \(segment)")
        }
        XCTAssertEqual(Self.slope(a, 2...10), Self.slope(b, 2...10), accuracy: 1, "pink noise's colour")
        // Bells: the pitch, and how fast it fades (1 s of ring measured from 0.3 s after the strike).
        // (The second set's bell is measured on our side only: in SBaGenX's render no 3000 Hz bell
        // stands out of the noise after the change at 12 s, 3014 Hz fading 5 dB/s.)
        for (start, pitch) in [(0.0, 2050.0), (12.0, 3000.0)] {
            let (fa, da) = Self.bell(a, at: start, pitch: pitch), (fb, db) = Self.bell(b, at: start, pitch: pitch)
            print("bell \(pitch): SBaGenX \(fa) Hz, \(da) dB/s; entrain \(fb) Hz, \(db) dB/s")
            XCTAssertEqual(fb, pitch, accuracy: 1)
            XCTAssertEqual(db, 15.1, accuracy: 1)
            guard start == 0 else { continue }
            XCTAssertEqual(fa, pitch, accuracy: 1)
            XCTAssertEqual(da, db, accuracy: 3)
        }
        // wave01 at 200+4: 202 Hz left and 198 Hz right in both.
        for x in [a, b] {
            let l = Spectrum(Array(x[0][(26 * 48_000)..<(34 * 48_000)]), sampleRate: 48_000).peak(from: 180, to: 220).frequency
            let r = Spectrum(Array(x[1][(26 * 48_000)..<(34 * 48_000)]), sampleRate: 48_000).peak(from: 180, to: 220).frequency
            XCTAssertEqual(l, 202, accuracy: 0.1)
            XCTAssertEqual(r, 198, accuracy: 0.1)
        }
    }

    /// The rate the inter-channel level difference swings at, over `seconds`.
    static func spinRate(_ x: [[Float]], _ seconds: ClosedRange<Int>) -> Double {
        let window = 2400
        var ild: [Float] = []
        for start in stride(from: seconds.lowerBound * 48_000, to: seconds.upperBound * 48_000 - window, by: window) {
            let l = Measure.rms(x[0][start..<(start + window)]), r = Measure.rms(x[1][start..<(start + window)])
            ild.append(Float(20 * log10(max(l, 1e-9) / max(r, 1e-9))))
        }
        let mean = ild.reduce(0, +) / Float(ild.count)
        return Spectrum(ild.map { $0 - mean }, sampleRate: 20, window: .hann).peak(from: 0.2, to: 5).frequency
    }

    /// The swing of the level difference between the ears (largest less smallest, 50 ms windows), in dB.
    static func swing(_ x: [[Float]], _ seconds: ClosedRange<Int>) -> Double {
        var ild: [Double] = []
        for start in stride(from: seconds.lowerBound * 48_000, to: seconds.upperBound * 48_000 - 2400, by: 2400) {
            ild.append(20 * log10(max(Measure.rms(x[0][start..<(start + 2400)]), 1e-9) / max(Measure.rms(x[1][start..<(start + 2400)]), 1e-9)))
        }
        return ild.max()! - ild.min()!
    }

    /// Mean spectral slope of the left ear in dB per octave (octave bands 200–6400 Hz), bells excluded.
    static func slope(_ x: [[Float]], _ seconds: ClosedRange<Int>) -> Double {
        let s = Spectrum(Array(x[0][(seconds.lowerBound * 48_000)..<(seconds.upperBound * 48_000)]), sampleRate: 48_000, window: .hann)
        func density(_ f: Double) -> Double {
            let bins = (s.bin(of: f)..<s.bin(of: 2 * f)).filter { k in [3000.0, 2050.0].allSatisfy { abs(Double(k) * s.binWidth - $0) > 20 } }
            return bins.reduce(0) { $0 + s.magnitudes[$1] * s.magnitudes[$1] } / Double(bins.count)
        }
        let bands = [200.0, 400, 800, 1600, 3200]
        let levels = bands.map { 10 * log10(density($0)) }
        return (levels.last! - levels.first!) / Double(bands.count - 1)
    }

    /// The bell's pitch and its fade (dB a second) from the strike at `start` seconds.
    static func bell(_ x: [[Float]], at start: Double, pitch: Double) -> (Double, Double) {
        func level(_ t: Double) -> Double {
            let from = Int((start + t) * 48_000)
            return Spectrum(Array(x[0][from..<(from + 9600)]), sampleRate: 48_000).peak(from: pitch - 20, to: pitch + 20).magnitude
        }
        let from = Int((start + 0.3) * 48_000)
        let frequency = Spectrum(Array(x[0][from..<(from + 48_000)]), sampleRate: 48_000).peak(from: pitch - 50, to: pitch + 50).frequency
        return (frequency, 20 * log10(level(0.3) / level(1.3)))
    }
}
