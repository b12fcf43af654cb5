import EntrainEngine
import TestSupport
import XCTest

/// Changes must glide: no sample-to-sample jump beyond what the signal itself makes.
/// A naive engine (values applied instantly, phase reset on change) jumps by ~0.3–1.0 here.
final class TransitionTests: XCTestCase {
    /// Steady for a little over 1 s (off any zero crossing of the tones), then the change, then
    /// 1 s: the largest jump across the change must stay within 10 % of the largest jump of the
    /// steady signal before or after it.
    func assertSmooth(from settings: [String: String], change: (EngineHost) throws -> Void,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let host = try TestEngine.host(settings)
        let renderer = OfflineRenderer(host: host)
        let before = renderer.renderStereo(frames: 50_123)
        try change(host)
        let after = renderer.renderStereo(frames: 48_000)
        for (b, a) in [(before.left, after.left), (before.right, after.right)] {
            let steady = max(Measure.largestJump(b[24_000...]), Measure.largestJump(a[24_000...]))
            let across = Measure.largestJump((b[40_000...] + a[..<24_000])[...])
            XCTAssertLessThanOrEqual(across, steady * 1.1 + 1e-4, "jump \(across) vs steady \(steady)", file: file, line: line)
        }
    }

    let base = ["/entrain/carrier": "300", "/entrain/beat": "10", "/entrain/volume": "0.8"]

    func testCarrierChange() throws {
        try assertSmooth(from: base) { try $0.change("/entrain/carrier", 150) }
    }

    func testBeatChange() throws {
        try assertSmooth(from: base) { try $0.change("/entrain/beat", 40) }
    }

    func testVolumeChange() throws {
        try assertSmooth(from: base.merging(["/entrain/volume": "0.1"]) { $1 }) { try $0.change("/entrain/volume", 1) }
    }

    func testModeChange() throws {
        try assertSmooth(from: base) { try $0.change("/entrain/mode", 2) }  // binaural → isochronic
    }

    func testWaveformChange() throws {
        // sine → triangle: the triangle's own slope is gentle, so a hard switch (up to 0.17) would show.
        try assertSmooth(from: base) { try $0.change("/entrain/waveform", 2) }
    }

    /// Glides follow their documented curves: the beat moves linearly (as SBaGen and Gnaural
    /// slide), the carrier exponentially (equal musical intervals per second).
    func testLongSweepsFollowTheirCurves() throws {
        let host = try TestEngine.host(["/entrain/carrier": "200", "/entrain/beat": "10"])
        try host.change("/entrain/beat", 5, glide: 10)
        try host.change("/entrain/carrier", 800, glide: 10)
        let (l, r) = TestEngine.render(host, seconds: 10)
        let mid = 5 * 48_000, window = 24_000  // ±0.25 s around the middle
        let left = Spectrum(Array(l[(mid - window)..<(mid + window)]), sampleRate: 48_000).peak(from: 300, to: 500)
        let right = Spectrum(Array(r[(mid - window)..<(mid + window)]), sampleRate: 48_000).peak(from: 300, to: 500)
        XCTAssertEqual(left.frequency, 400, accuracy: 0.5)            // √(200·800)
        XCTAssertEqual(right.frequency - left.frequency, 7.5, accuracy: 0.1)  // (10+5)/2
    }
}
