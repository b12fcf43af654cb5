import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// Spinning noise, the struck bell and the cue bells, measured from renders (voice 1 silent).
final class SoundsTests: XCTestCase {
    static let rate = 48_000.0

    func host(_ settings: [String: String]) throws -> EngineHost {
        var all = ["/entrain/level": "0", "/entrain/volume": "1"]
        for (k, v) in settings { all[k] = v }
        return try TestEngine.host(all)
    }

    /// The level difference between the ears swings at the spin rate; the noise keeps its colour.
    func testSpinPansTheNoiseAtItsRate() throws {
        let h = try host(["/spin/level": "0.8", "/spin/width": "0.8", "/spin/rate": "0.5", "/spin/noise": "pink"])
        let (l, r) = TestEngine.render(h, seconds: 12)
        let window = 2400
        var ild: [Float] = []
        for start in stride(from: 0, to: l.count - window, by: window) {
            ild.append(Float(20 * log10(Measure.rms(l[start..<(start + window)]) / Measure.rms(r[start..<(start + window)]))))
        }
        let mean = ild.reduce(0, +) / Float(ild.count)
        let spectrum = Spectrum(ild.map { $0 - mean }, sampleRate: Self.rate / Double(window), window: .hann)
        XCTAssertEqual(spectrum.peak(from: 0.1, to: 5).frequency, 0.5, accuracy: 0.05)
        XCTAssertGreaterThan(ild.max()!, 8, "width 0.8: the far ear 10 dB down at the extremes")
        // Pink: about 3 dB less per octave (the mono source, heard in the left ear).
        let s = Spectrum(l, sampleRate: Self.rate, window: .hann)
        func band(_ f: Double) -> Double { (s.bin(of: f)..<s.bin(of: 2 * f)).reduce(0) { $0 + s.magnitudes[$1] * s.magnitudes[$1] } }
        let slope = 10 * log10(band(3200) / band(200)) / 4 - 10 * log10(2)  // per octave, per hertz of bandwidth
        XCTAssertEqual(slope, -3, accuracy: 1)
    }

    /// A bell rings at its pitch when struck and fades 15.1 dB a second (SBaGen's 1/12 per 50 ms);
    /// it rings once per strike (turning the toggle off is silent, on again rings again).
    func testBellRingsAtItsPitchAndFadesAsSBaGensDoes() throws {
        let h = try host(["/bell/frequency": "2050", "/bell/level": "0.5"])
        try h.change("/bell/strike", 1, at: 4800)
        let (l, r) = TestEngine.render(h, seconds: 3)
        XCTAssertNil(Measure.firstDifference(l, r), "centred")
        XCTAssertEqual(Measure.peak(l[0..<4871]), 0, "silent before the strike (and the limiter's 71-frame look-ahead): first sound at \(l.firstIndex { $0 != 0 } ?? -1)")
        XCTAssertEqual(Spectrum(Array(l[9600..<57_600]), sampleRate: Self.rate).peak(from: 1500, to: 2500).frequency, 2050, accuracy: 0.1)
        let early = Measure.rms(l[14_400..<19_200]), late = Measure.rms(l[62_400..<67_200])  // 1 s apart
        XCTAssertEqual(Measure.decibels(early / late), 15.1, accuracy: 0.2)
        XCTAssertEqual(Double(Measure.peak(l[5000..<7000])), 0.5, accuracy: 0.02, "the strike's level")
    }

    /// Stage cues ring at /cue/stage's level, and only then (0 is off); the end cue rings when a
    /// stop's fade-out begins and is heard through it, and the engine stops after it has rung down.
    func testCueBellsRingWhereAskedAndOnlyThen() throws {
        let silent = try host(["/cue/stage": "0", "/mix/level": "0"])
        try silent.change("/cue/strike", 1, at: 4800)
        XCTAssertEqual(Measure.peak(TestEngine.render(silent, seconds: 1).left), 0, "off by default")

        let h = try host(["/cue/stage": "0.4", "/cue/end": "0.6", "/cue/frequency": "528", "/master/fade-out": "1"])
        try h.change("/cue/strike", 1, at: 4800)
        try h.change("/cue/strike", 0, at: 4801)
        let renderer = OfflineRenderer(host: h, blockSize: 256)
        let (first, _) = renderer.renderStereo(frames: 48_000)
        XCTAssertEqual(Double(Measure.peak(first[5000..<8000])), 0.4, accuracy: 0.02)
        XCTAssertEqual(Spectrum(Array(first[9600...]), sampleRate: Self.rate).peak(from: 400, to: 700).frequency, 528, accuracy: 0.2)
        try h.stop(at: 48_000 + 4800)
        let (second, _) = renderer.renderStereo(frames: 3 * 48_000)
        XCTAssertEqual(Double(Measure.peak(second[5400..<8000])), 0.6, accuracy: 0.03, "the end cue at its level")
        XCTAssertGreaterThan(Measure.peak(second[(2 * 48_000)...]), 0.02, "still ringing after the 1 s fade-out")
        XCTAssertFalse(h.isStopped, "the engine waits for the end cue to ring down")
    }
}
