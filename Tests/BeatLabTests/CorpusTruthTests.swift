import BeatLab
import XCTest

/// The ground truth agrees with the audio it describes.
final class CorpusTruthTests: XCTestCase {
    /// Rendered once per test run: rendering is slow in debug builds.
    nonisolated(unsafe) static var rendered: [String: CorpusItem] = [:]

    func item(_ name: String, sampleRate: Int = BeatCorpus.defaultSampleRate) throws -> CorpusItem {
        let key = "\(name)@\(sampleRate)"
        if let item = Self.rendered[key] { return item }
        let item = try XCTUnwrap(BeatCorpus.item(named: name, sampleRate: sampleRate), name)
        Self.rendered[key] = item
        return item
    }

    func meanSquare(_ x: [Float], _ range: Range<Int>) -> Double {
        let r = range.clamped(to: 0..<x.count)
        guard !r.isEmpty else { return 0 }
        return r.reduce(0.0) { $0 + Double(x[$1]) * Double(x[$1]) } / Double(r.count)
    }

    /// Every truth onset starts a hit: the 5 ms after it carry at least 30 times (about 15 dB) the
    /// mean power of the 2 ms before it.
    func testOnsetsStartSharply() throws {
        for name in ["click-070", "click-180", "rock-120", "house-124", "hiphop-075", "fast-180", "shuffle-100", "ramp-090-120"] {
            let item = try item(name)
            let ms = Double(item.sampleRate) / 1000
            var worst = Double.infinity
            for t in item.onsets {
                let s = Int((t * Double(item.sampleRate)).rounded())
                let before = meanSquare(item.samples, (s - Int(2 * ms))..<s)
                let after = meanSquare(item.samples, s..<(s + Int(5 * ms)))
                worst = min(worst, after / max(before, 1e-20))
            }
            XCTAssertGreaterThan(worst, 30, "\(name): weakest onset only \(10 * log10(worst)) dB above what precedes it")
        }
    }

    /// Truth times are exact samples, and the music stays in range.
    func testTimesAreSampleExactAndInsideTheAudio() throws {
        for name in ["click-100", "jump-100-130", "ramp-090-120", "shuffle-100"] {
            for rate in [48_000, 44_100] {
                let item = try item(name, sampleRate: rate)
                for t in item.onsets + item.beats {
                    let s = t * Double(rate)
                    XCTAssertEqual(s, s.rounded(), accuracy: 1e-6, "\(name) @\(rate)")
                    XCTAssert(t >= 0.5 && t < item.duration - 0.25, "\(name): \(t) s")
                }
                XCTAssertEqual(item.onsets, item.onsets.sorted())
            }
        }
    }

    /// Steady items: every beat interval is 60/BPM within one sample.
    func testSteadyBeatSpacing() throws {
        let tempi = ["click-070": 70.0, "click-100": 100, "click-128": 128, "click-160": 160, "click-180": 180,
                     "rock-090": 90, "rock-120": 120, "house-124": 124, "hiphop-075": 75, "fast-174": 174,
                     "fast-180": 180, "shuffle-100": 100, "noisy-rock-120": 120]
        for (name, bpm) in tempi {
            let item = try item(name)
            XCTAssertEqual(item.category, name == "shuffle-100" ? .swing : name.hasPrefix("noisy") ? .noisy : .steady)
            XCTAssertGreaterThan(item.beats.count, Int(28 * bpm / 60), name)
            for (a, b) in zip(item.beats, item.beats.dropFirst()) {
                XCTAssertEqual(b - a, 60 / bpm, accuracy: 1.0 / Double(item.sampleRate) + 1e-12, name)
            }
            // Every beat carries a hit in these patterns.
            XCTAssertTrue(Set(item.beats).isSubset(of: Set(item.onsets)), name)
        }
    }

    func testRampBeatsFollowTheIntegratedTempo() throws {
        let item = try item("ramp-090-120")
        let intervals = zip(item.beats, item.beats.dropFirst()).map { $1 - $0 }
        XCTAssertTrue(zip(intervals, intervals.dropFirst()).allSatisfy { $1 < $0 }, "intervals shrink monotonically")
        // The first interval is just under 60/90 and the last just over 60/120.
        XCTAssertEqual(intervals.first!, 60.0 / 90, accuracy: 0.01)
        XCTAssertLessThan(intervals.first!, 60.0 / 90)
        XCTAssertEqual(intervals.last!, 60.0 / 120, accuracy: 0.01)
        XCTAssertGreaterThan(intervals.last!, 60.0 / 120)
        // 30 s of a linear ramp from 90 to 120 BPM hold (90 + 120) / 2 × 30 / 60 = 52.5 beats.
        XCTAssertEqual(item.beats.count, 53)
    }

    func testJumpChangesTempoOnTheDownbeatAt20Seconds() throws {
        let item = try item("jump-100-130")
        XCTAssertEqual(item.category, .tempoChange)
        XCTAssertEqual(item.duration, 40)
        let index = try XCTUnwrap(item.beats.firstIndex(of: 20.0))
        XCTAssertEqual(index % 4, 0, "a downbeat")
        XCTAssertEqual(item.beats[index] - item.beats[index - 1], 0.6, accuracy: 1.0 / 48_000)
        XCTAssertEqual(item.beats[index + 1] - item.beats[index], 60.0 / 130, accuracy: 1.0 / 48_000)
    }

    /// Swung hats: an onset two thirds of the way through every beat.
    func testShuffleOffBeatsAreSwung() throws {
        let item = try item("shuffle-100")
        let offBeats = item.beats.dropLast().map { $0 + 0.6 * 2 / 3 }
        let m = BeatMetrics.fMeasure(reference: offBeats, estimated: item.onsets, window: 1.0 / 48_000)
        XCTAssertEqual(m.recall, 1)
        XCTAssertEqual(item.onsets.count, 2 * item.beats.count)
    }

    /// Pads and noise add no onsets: the noisy item has the same truth as the clean one.
    func testNoisyItemTruthIsTheDrumsOnly() throws {
        let clean = try item("rock-120"), noisy = try item("noisy-rock-120")
        XCTAssertEqual(clean.onsets, noisy.onsets)
        XCTAssertEqual(clean.beats, noisy.beats)
        XCTAssertNotEqual(clean.samples, noisy.samples)
    }

    func testNoBeatItems() throws {
        let expected: [String: (seconds: Double, rmsDB: Double?)] = [
            "silence": (20, nil), "white-noise-75dbfs": (20, -75), "pink-noise-20dbfs": (30, -20), "pads-only": (30, nil),
        ]
        for (name, spec) in expected {
            let item = try item(name)
            XCTAssertEqual(item.category, .noBeat)
            XCTAssertEqual(item.onsets, [], name)
            XCTAssertEqual(item.beats, [], name)
            XCTAssertEqual(item.duration, spec.seconds, name)
            let rms = meanSquare(item.samples, 0..<item.samples.count).squareRoot()
            if let db = spec.rmsDB { XCTAssertEqual(20 * log10(rms), db, accuracy: 0.1, name) }
        }
        XCTAssertTrue(try item("silence").samples.allSatisfy { $0 == 0 })
        XCTAssertEqual(try item("pads-only").samples.map(abs).max()!, 0.5, accuracy: 1e-6)
    }

    func testLevelsAndNames() throws {
        XCTAssertEqual(BeatCorpus.names.count, Set(BeatCorpus.names).count, "names are unique")
        for name in ["click-128", "hiphop-075", "noisy-rock-120"] {
            XCTAssertEqual(try item(name).samples.map(abs).max()!, 0.5, accuracy: 1e-3, "peak -6 dBFS (plus the noise floor)")
        }
        XCTAssertNil(BeatCorpus.item(named: "no-such-item"))
    }

    func testGenerationIsDeterministic() throws {
        for name in ["noisy-rock-120", "pink-noise-20dbfs", "hiphop-075"] {
            let a = try XCTUnwrap(BeatCorpus.item(named: name)), b = try XCTUnwrap(BeatCorpus.item(named: name))
            XCTAssertEqual(a.samples, b.samples, name)
            XCTAssertEqual(a.onsets, b.onsets, name)
        }
    }
}
