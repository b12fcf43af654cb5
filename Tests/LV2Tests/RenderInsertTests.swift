import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// `entrain render` with hosted plugins: a session's stages set the chain (a plugin and its
/// values), `--insert` and `--set /fx/…` work as in `run`, and a bad URI stops the render.
final class RenderInsertTests: XCTestCase {
    static let amp = "http://plugin.org.uk/swh-plugins/amp"

    func testSessionStagesSetTheChainInARender() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-fx-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = folder.appendingPathComponent("fx.json"), out = folder.appendingPathComponent("out.wav")
        try """
        {"name": "fx", "stages": [
          {"duration": 2, "set": {"/fx/entrainment/chain": "\(Self.amp) gain=-6"}},
          {"duration": 2, "set": {"/fx/entrainment/chain": "\(Self.amp) gain=-12"}}]}
        """.write(to: session, atomically: true, encoding: .utf8)
        let result = try EntrainBinary.run(["render", "--quiet", "--session", session.path, "--fade-in", "0", "--fade-out", "0",
                                            "--out", out.path])
        XCTAssertEqual(result.status, 0, result.error)
        let plain = folder.appendingPathComponent("plain.wav")
        XCTAssertEqual(try EntrainBinary.run(["render", "--quiet", "--duration", "4", "--fade-in", "0", "--fade-out", "0", "--out", plain.path]).status, 0)
        let wet = try WAVFile(contentsOf: out).samples[0], dry = try WAVFile(contentsOf: plain).samples[0]
        func level(_ x: [Float], _ from: Double, _ to: Double) -> Double { Measure.decibels(Measure.rms(x[Int(from * 48000)..<Int(to * 48000)])) }
        XCTAssertEqual(level(wet, 0.5, 1.5) - level(dry, 0.5, 1.5), -6, accuracy: 0.1, "stage 1")
        XCTAssertEqual(level(wet, 2.5, 3.5) - level(dry, 2.5, 3.5), -12, accuracy: 0.1, "stage 2")
    }

    func testInsertAndSetInARenderAndABadURIStopsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("render-fx2-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.wav"), plain = folder.appendingPathComponent("plain.wav")
        let common = ["render", "--quiet", "--duration", "1", "--fade-in", "0", "--fade-out", "0"]
        XCTAssertEqual(try EntrainBinary.run(common + ["--insert", "entrainment:\(Self.amp)", "--set", "/fx/entrainment/chain=\(Self.amp) gain=-20",
                                                       "--out", out.path]).status, 0)
        XCTAssertEqual(try EntrainBinary.run(common + ["--out", plain.path]).status, 0)
        let wet = try WAVFile(contentsOf: out).samples[1], dry = try WAVFile(contentsOf: plain).samples[1]
        XCTAssertEqual(Measure.decibels(Measure.rms(wet[24000...]) / Measure.rms(dry[24000...])), -20, accuracy: 0.1)
        let bad = try EntrainBinary.run(common + ["--insert", "entrainment:http://example.org/none", "--out", out.path])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.error.contains("no LV2 plugin with URI 'http://example.org/none' is installed"), bad.error)
    }
}
