import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// `entrain render --out x.flac | .ogg | .opus` (libsndfile), decoded back by other programs
/// (`flac`, `sox`, `oggdec`; installed by scripts/install-deps.sh) and measured; and `--mix`
/// reading those formats.
final class RenderFormatTests: XCTestCase {
    let settings = ["--duration", "6", "--carrier", "300", "--beat", "8", "--fade-in", "0.5", "--fade-out", "0.5"]
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func render(_ name: String, _ extra: [String] = []) throws -> URL {
        let out = folder.appendingPathComponent(name)
        let result = try EntrainBinary.run(["render", "--quiet", "--out", out.path] + settings + extra)
        XCTAssertEqual(result.status, 0, result.error)
        return out
    }

    /// Run a decoder from the system; skip when it is not installed.
    func decode(_ tool: String, _ arguments: [String]) throws {
        let path = "/usr/bin/\(tool)"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("\(tool) is not installed (scripts/install-deps.sh installs it)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
    }

    /// FLAC holds the very codes of the WAV render, TPDF dither included: decoded by `flac`,
    /// they are the same samples, bit for bit (16 and 24-bit).
    func testFLACDecodesToTheWAVRendersSamples() throws {
        for bits in ["16", "24"] {
            let wav = try render("a\(bits).wav", ["--format", bits])
            let flac = try render("a\(bits).flac", ["--format", bits])
            let decoded = folder.appendingPathComponent("decoded\(bits).wav")
            try decode("flac", ["-d", "-s", "-f", "-o", decoded.path, flac.path])
            let a = try WAVFile(contentsOf: wav), b = try WAVFile(contentsOf: decoded)
            XCTAssertEqual(b.bitsPerSample, Int(bits)!)
            XCTAssertEqual(b.sampleRate, 48_000)
            XCTAssertEqual(b.samples[0].count, 6 * 48_000)
            XCTAssertNil(Measure.firstDifference(a.samples[0], b.samples[0]), "\(bits)-bit left")
            XCTAssertNil(Measure.firstDifference(a.samples[1], b.samples[1]), "\(bits)-bit right")
        }
    }

    /// Ogg Vorbis decoded by `oggdec` and by `sox`: the same tones at the same level (a lossy codec:
    /// frequencies to 0.05 Hz, level within 0.3 dB).
    func testOggVorbisDecodesToTheExpectedSignal() throws {
        let ogg = try render("a.ogg")
        let viaOggdec = folder.appendingPathComponent("oggdec.wav"), viaSox = folder.appendingPathComponent("sox.wav")
        try decode("oggdec", ["-Q", "-o", viaOggdec.path, ogg.path])
        try decode("sox", [ogg.path, "-b", "16", viaSox.path])
        for decoded in [viaOggdec, viaSox] { try checkTones(try WAVFile(contentsOf: decoded), label: decoded.lastPathComponent) }
    }

    /// Opus (48 kHz) read back through libsndfile, which no longer shares code with the writer's
    /// encoder path: the same tones at the same level.
    func testOpusDecodesToTheExpectedSignal() throws {
        let opus = try render("a.opus")
        let viaSox = folder.appendingPathComponent("opus.wav")
        // sox reads Opus only with libsox-fmt-opus; our own reader (libsndfile) always can.
        let reader = try SoundFileReader(url: opus)
        XCTAssertEqual(reader.sampleRate, 48_000)
        var l = [Float](repeating: 0, count: reader.frames), r = l
        l.withUnsafeMutableBufferPointer { a in r.withUnsafeMutableBufferPointer { b in reader.read(left: a.baseAddress!, right: b.baseAddress!, frames: reader.frames) } }
        try checkTones(samples: [l, r], sampleRate: 48_000, label: "opus")
        _ = viaSox
    }

    func checkTones(_ file: WAVFile, label: String) throws {
        try checkTones(samples: file.samples, sampleRate: Double(file.sampleRate), label: label)
    }

    func checkTones(samples: [[Float]], sampleRate: Double, label: String) throws {
        XCTAssertGreaterThanOrEqual(samples[0].count, 6 * 48_000 - 960, label)
        let left = Array(samples[0][48_000..<(5 * 48_000)]), right = Array(samples[1][48_000..<(5 * 48_000)])
        XCTAssertEqual(Spectrum(left, sampleRate: sampleRate).peak(from: 250, to: 350).frequency, 300, accuracy: 0.05, label)
        XCTAssertEqual(Spectrum(right, sampleRate: sampleRate).peak(from: 250, to: 350).frequency, 308, accuracy: 0.05, label)
        // Default volume 0.5: an RMS of 0.5/√2, within 0.3 dB.
        XCTAssertEqual(Measure.decibels(Measure.rms(left[...]) / (0.5 / 2.0.squareRoot())), 0, accuracy: 0.3, label)
    }

    /// Wrong combinations are refused with a reason before anything is written.
    func testImpossibleCombinationsAreRefusedClearly() throws {
        let cases: [([String], String)] = [
            (["--out", folder.appendingPathComponent("x.flac").path, "--format", "float"], "FLAC holds integers"),
            (["--out", folder.appendingPathComponent("x.ogg").path, "--format", "16"], "--format does not apply"),
            (["--out", folder.appendingPathComponent("x.opus").path, "--rate", "44100"], "Opus plays at"),
        ]
        for (arguments, message) in cases {
            let result = try EntrainBinary.run(["render", "--duration", "1"] + arguments)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.error.contains(message), result.error)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing written, no temporary left")
    }

    /// --mix reads WAV, FLAC and Ogg: a file rendered in each plays through the mix input (voice
    /// silent) and comes out at its own frequency.
    func testMixReadsWAVFLACAndOgg() throws {
        let music = try render("music.flac", ["--format", "24", "--carrier", "440", "--beat", "0"])
        let ogg = try render("music.ogg", ["--carrier", "440", "--beat", "0"])
        let wav = try render("music.wav", ["--carrier", "440", "--beat", "0"])
        for source in [music, ogg, wav] {
            let out = folder.appendingPathComponent("mixed-\(source.pathExtension).wav")
            let result = try EntrainBinary.run(["render", "--quiet", "--mix", source.path, "--set", "/entrain/level=0",
                                                "--set", "/mix/beat/depth=1", "--set", "/mix/beat/rate=6", "--out", out.path])
            XCTAssertEqual(result.status, 0, result.error)
            let file = try WAVFile(contentsOf: out)
            XCTAssertEqual(file.samples[0].count, 6 * 48_000, "the mix file's length")
            let left = Array(file.samples[0][48_000..<(5 * 48_000)]), right = Array(file.samples[1][48_000..<(5 * 48_000)])
            XCTAssertEqual(Spectrum(left, sampleRate: 48_000).peak(from: 400, to: 480).frequency, 437, accuracy: 0.15, source.lastPathComponent)
            XCTAssertEqual(Spectrum(right, sampleRate: 48_000).peak(from: 400, to: 480).frequency, 443, accuracy: 0.15, source.lastPathComponent)
        }
        let missing = try EntrainBinary.run(["render", "--mix", folder.appendingPathComponent("nope.flac").path, "--out", folder.appendingPathComponent("x.wav").path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.error.contains("no such file"), missing.error)
    }
}
