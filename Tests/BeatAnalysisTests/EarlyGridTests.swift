import BeatLab
import EntrainCore
@testable import EntrainEngine
import XCTest

/// The first beats: published once the tempo-and-phase filter's grid stands out of the
/// activation (`BeatFilterTracker`'s confidence). These tests check that such early beats are
/// true beats, that they start only once the music has, and that the contrast that vouches for
/// them separates a groove from noise.
final class EarlyGridTests: XCTestCase {
    static func beats(_ samples: [Float], sampleRate: Int) throws -> [BeatEvent] {
        try BeatAnalysis.analyse(samples, sampleRate: Double(sampleRate)).filter { $0.kind == .beat }
    }

    /// The drums start after a stretch of silence (a live input that was quiet): the first beats
    /// wait for three beats of music, are on the drums, and count 1, 2, 3… without a restart.
    /// (Before the fix, with 0.37 s of silence first, two beats went out at 138 BPM, 100 ms off
    /// the 120 BPM drums, and the count restarted when the tempo settled.)
    func testAfterSilenceTheFirstBeatsAreOnTheDrumsAndCountFromOne() throws {
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120"))
        for silence in [0.1, 0.37, 0.77, 1.3] {
            let pad = Int(silence * Double(item.sampleRate))
            let beats = try Self.beats([Float](repeating: 0, count: pad) + item.samples, sampleRate: item.sampleRate)
            let first = Array(beats.prefix(8))
            XCTAssertEqual(first.map(\.count), Array(1...8), "counts after \(silence) s of silence")
            for beat in first {
                let time = Double(beat.frame) / Double(item.sampleRate) - silence
                let error = item.beats.map { abs($0 - time) }.min() ?? 1
                XCTAssertLessThanOrEqual(error, BeatMetrics.beatWindow, "beat at \(time) s after \(silence) s of silence")
            }
        }
    }

    /// The confidence the tracker publishes on (the grid's contrast): a click train at 120 BPM
    /// stands out above the 0.6 minimum (measured 0.74); random activation stays below it
    /// (at most 0.42 measured).
    func testConfidenceSeparatesAGrooveFromNoise() {
        func confidence(_ value: (Int) -> Double) -> (last: Float, highest: Float) {
            var tracker = BeatFilterTracker(sampleRate: 48000, hopSize: 128)
            defer { tracker.deallocate() }
            var highest: Float = 0
            for n in 0..<1500 {
                tracker.frame(value(n), end: Int64(256 * (n + 1)), sounding: true)
                if n > 750 { highest = max(highest, tracker.gridConfidence) }
            }
            return (tracker.gridConfidence, highest)
        }
        // 187.5 analysis frames a second: 120 BPM is a click every 93.75 frames.
        let clicks: (Int) -> Double = { n in (n * 4) % 375 < 4 ? 1 : 0.02 }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise: (Int) -> Double = { _ in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        XCTAssertGreaterThan(confidence(clicks).last, 0.7)
        XCTAssertLessThan(confidence(noise).highest, 0.5)
    }

    /// On the songs (sampled instruments), every beat published before 5 s (not scored by the
    /// F-measure) is a true beat, except on the ballad (its first beats go out at double tempo,
    /// on its off-beats too, until the metrical check halves it at about 5 s) and the first two of
    /// dense-100 (2.1 and 2.9 s: on off-beats of its sixteenth-note groove before the grid settles;
    /// the rule-based tracker, tuned on these songs, had none there — a known loss, kept in sight).
    func testEarlyBeatsOnTheSongsAreTrueBeats() throws {
        try XCTSkipUnless(SongRenderer.isAvailable, "fluidsynth or fluid-soundfont-gm not installed (make test installs them)")
        for item in try SongCorpus.items() where item.name != "ballad-070" {
            let early = try Self.beats(item.samples, sampleRate: item.sampleRate)
                .map { Double($0.frame) / Double(item.sampleRate) }.filter { $0 < 5 }
            XCTAssertGreaterThanOrEqual(early.count, 3, "\(item.name): beats before 5 s")
            let off = early.filter { time in (item.beats.map { abs($0 - time) }.min() ?? 1) > BeatMetrics.beatWindow }
            XCTAssertLessThanOrEqual(off.count, item.name == "dense-100" ? 2 : 0, "\(item.name): early beats off the truth: \(off)")
        }
    }
}
