import EntrainAmbient
import EntrainDSP
import EntrainEngine
import Foundation
import Kessho
import TestSupport
import XCTest

/// The ambient engine through the real binary: `entrain render --ambient-preset …` on preset files
/// in the web app's format: ours (presets/ambient, Tests/Fixtures/kessho) and, when beside the
/// checkout, the Kessho app's originals.
final class AmbientRenderTests: XCTestCase {
    /// A shipped preset with walking and sample-and-hold sliders, the ocean and the granulator.
    static let preset = Fixtures.shippedAmbientPresets.appendingPathComponent("Tidal_Glass.json")
    static let start = "2026-02-02T14:00:00Z"
    let temp = FileManager.default.temporaryDirectory.appendingPathComponent("ambient-\(UUID().uuidString)")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: temp) }

    func render(_ preset: URL = preset, seed: Int = 1, seconds: Int = 20, name: String, extra: [String] = []) throws -> URL {
        let out = temp.appendingPathComponent(name)
        let result = try EntrainBinary.run(["render", "--ambient-preset", preset.path,
                                            "--seed", String(seed), "--start-time", Self.start, "--duration", String(seconds),
                                            "--out", out.path] + extra)
        XCTAssertEqual(result.status, 0, result.error)
        return out
    }

    /// Same preset, seed and start time: the same bytes. Another seed: other bytes (the seeded
    /// randomness is really used), with the same chords (the harmony does not depend on it).
    func testSamePresetSeedAndStartRenderBitIdentical() throws {
        let a = try Data(contentsOf: render(seed: 7, name: "a.wav"))
        let b = try Data(contentsOf: render(seed: 7, name: "b.wav"))
        let c = try Data(contentsOf: render(seed: 8, name: "c.wav"))
        XCTAssertGreaterThan(a.count, 20 * 48_000 * 8)
        XCTAssertEqual(a, b, "two renders of the same preset, seed and start differ")
        XCTAssertNotEqual(a, c, "the seed changes nothing")
    }

    /// With the lead and drums busy (Full Tide: four lead lanes, four drum lanes, walking sliders,
    /// a sample-and-hold morph): the same bytes again, and other bytes with another seed.
    func testLeadAndDrumsRenderBitIdentical() throws {
        let full = Fixtures.shippedAmbientPresets.appendingPathComponent("Full_Tide.json")
        let a = try Data(contentsOf: render(full, seed: 5, seconds: 15, name: "fa.wav"))
        let b = try Data(contentsOf: render(full, seed: 5, seconds: 15, name: "fb.wav"))
        let c = try Data(contentsOf: render(full, seed: 6, seconds: 15, name: "fc.wav"))
        XCTAssertEqual(a, b, "lead and drums: two renders differ")
        XCTAssertNotEqual(a, c)
    }

    /// Drum evolve on every lane (`--set`, every bar, full intensity): the same bytes twice, and
    /// other bytes than without it.
    func testDrumEvolveRendersBitIdentical() throws {
        let full = Fixtures.shippedAmbientPresets.appendingPathComponent("Full_Tide.json")
        let evolve = (1...4).flatMap { n in
            ["--set", "/ambient/drumEuclid\(n)Evolve=true", "--set", "/ambient/drumEuclid\(n)EvolveEvery=1",
             "--set", "/ambient/drumEuclid\(n)EvolveIntensity=1"]
        }
        let a = try Data(contentsOf: render(full, seed: 5, seconds: 10, name: "ea.wav", extra: evolve))
        let b = try Data(contentsOf: render(full, seed: 5, seconds: 10, name: "eb.wav", extra: evolve))
        let plain = try Data(contentsOf: render(full, seed: 5, seconds: 10, name: "ep.wav"))
        XCTAssertEqual(a, b, "evolve: two renders differ")
        XCTAssertNotEqual(a, plain, "evolve changes nothing")
    }

    /// Every preset of ours renders 30 s: finite, under the ceiling, at a level an ambient bed has
    /// (the lead-only and drum presets too, now that the lead and drums are rendered).
    func testEveryOwnPresetRendersThirtySeconds() throws {
        let files = Fixtures.files(in: Fixtures.shippedAmbientPresets, suffix: "json") + Fixtures.files(in: Fixtures.ours("kessho"), suffix: "json")
        XCTAssertEqual(files.count, 17, "14 shipped, 3 test presets")
        try checkThirtySeconds(files)
    }

    /// Every preset the web app ships (and the iOS ones, trailing commas included), the same way.
    func testEveryPeerPresetRendersThirtySeconds() throws {
        guard let folder = Fixtures.peers("kessho-presets") else { throw XCTSkip(Fixtures.peersAbsent("kessho-presets")) }
        let files = Fixtures.files(in: folder, suffix: "json").filter { $0.lastPathComponent != "manifest.json" }
            + Fixtures.files(in: folder.appendingPathComponent("ios"), suffix: "json")
        XCTAssertGreaterThanOrEqual(files.count, 14)
        try checkThirtySeconds(files)
    }

    func checkThirtySeconds(_ files: [URL]) throws {
        let ceiling = Float(pow(10, -1.0 / 20))
        var report: [String] = []
        for url in files {
            let name = url.pathComponents.suffix(2).joined(separator: "/")
            let file = try WAVFile(contentsOf: render(url, seconds: 30, name: name.replacingOccurrences(of: "/", with: "_") + ".wav"))
            let left = file.samples[0], right = file.samples[1]
            XCTAssertEqual(left.count, 30 * 48_000, name)
            XCTAssertTrue(left.allSatisfy(\.isFinite) && right.allSatisfy(\.isFinite), "\(name): NaN or infinity")
            let peak = max(Measure.peak(left), Measure.peak(right))
            XCTAssertLessThanOrEqual(peak, ceiling, "\(name): above the -1 dBFS ceiling")
            let rms = Measure.decibels(Measure.rms(left[(5 * 48_000)..<(25 * 48_000)]))
            XCTAssertGreaterThan(rms, -60, "\(name): nearly silent")
            XCTAssertLessThan(rms, -6, "\(name): too loud for a bed")
            report.append(String(format: "%@ rms %.1f dBFS, peak %.1f dBFS", name, rms, Measure.decibels(Double(peak))))
        }
        print(report.joined(separator: "\n"))
    }

    /// With entrainment options the file is both pairs summed under the ceiling, and the stems
    /// hold each pair alone, frame-aligned with the mix.
    func testStemsAndTheirMixdown() throws {
        let stems = temp.appendingPathComponent("stems")
        let mix = try WAVFile(contentsOf: render(seconds: 12, name: "mix.wav",
                                                 extra: ["--carrier", "200", "--beat", "6", "--volume", "0.3", "--stems", stems.path]))
        let entrainment = try WAVFile(contentsOf: stems.appendingPathComponent("entrainment.wav"))
        let ambient = try WAVFile(contentsOf: stems.appendingPathComponent("ambient.wav"))
        XCTAssertEqual(Spectrum(Array(entrainment.samples[0][48_000..<(5 * 48_000)]), sampleRate: 48_000).peak(from: 150, to: 250).frequency,
                       200, accuracy: 0.1)
        XCTAssertGreaterThan(Measure.peak(ambient.samples[0]), 0.003)
        var largest: Float = 0
        for c in 0..<2 {
            for i in 0..<mix.samples[c].count {
                largest = max(largest, abs(mix.samples[c][i] - (entrainment.samples[c][i] + ambient.samples[c][i])))
            }
        }
        XCTAssertLessThan(largest, 1e-6, "below the ceiling the mix is the plain sum, frame for frame")
        XCTAssertLessThanOrEqual(max(Measure.peak(mix.samples[0]), Measure.peak(mix.samples[1])), Float(pow(10, -1.0 / 20)))
    }

    /// A session stage's "ambient" block starts the engine offline too, on the stage's frame.
    func testSessionStageStartsTheAmbientEngineInARender() throws {
        let data = temp.appendingPathComponent("data")
        let presets = data.appendingPathComponent("entrain/ambient")
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.preset, to: presets.appendingPathComponent("Tidal_Glass.json"))
        let session = temp.appendingPathComponent("s.json")
        try Data("""
        { "name": "ambient later", "stages": [ { "duration": 3 },
          { "duration": 9, "ambient": { "preset": "Tidal_Glass", "crossfade": 0 } } ] }
        """.utf8).write(to: session)
        let stems = temp.appendingPathComponent("stems")
        let out = temp.appendingPathComponent("session.wav")
        let result = try EntrainBinary.run(["render", "--session", session.path, "--seed", "3", "--start-time", Self.start,
                                            "--stems", stems.path, "--out", out.path], environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(result.status, 0, result.error)
        let ambient = try WAVFile(contentsOf: stems.appendingPathComponent("ambient.wav")).samples[0]
        XCTAssertEqual(Measure.peak(ambient[..<(3 * 48_000)]), 0, "silent before its stage")
        XCTAssertGreaterThan(Measure.peak(ambient[(4 * 48_000)..<(10 * 48_000)]), 0.003, "playing in its stage")
    }

    /// `--set /ambient/KEY=VALUE` changes the ambient state from the command line, checked as OSC
    /// checks it; without a preset it plays the web's defaults.
    func testAmbientSettingsOnTheCommandLine() throws {
        let out = temp.appendingPathComponent("set.wav")
        let bad = try EntrainBinary.run(["render", "--set", "/ambient/tension=2", "--duration", "2", "--out", out.path])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.error.contains("/ambient/tension: 2 is out of range 0–1"), bad.error)
        let elsewhere = try EntrainBinary.run(["analyse", out.path, "--set", "/ambient/tension=0.5"])
        XCTAssertNotEqual(elsewhere.status, 0, "not silently ignored")
        let good = try EntrainBinary.run(["render", "--set", "/ambient/masterVolume=0", "--duration", "4", "--out", out.path])
        XCTAssertEqual(good.status, 0, good.error)
        XCTAssertEqual(Measure.peak(try WAVFile(contentsOf: out).samples[0]), 0, "masterVolume 0 applied")
        let defaults = try EntrainBinary.run(["render", "--set", "/ambient/masterVolume=0.9", "--duration", "4", "--out", out.path])
        XCTAssertEqual(defaults.status, 0, defaults.error)
        XCTAssertGreaterThan(Measure.peak(try WAVFile(contentsOf: out).samples[0]), 0.003, "the defaults play")
    }
}
