import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// The mix input, measured: music fed through the offline renderer's mix source (as mix_L/R
/// would carry it), the entrainment voice silent, each effect's numbers checked.
final class MixInputTests: XCTestCase {
    static let rate = 48_000.0

    /// A chord with a little movement, standing in for music: partials 30 Hz or more apart.
    static let partials = [220.0, 277.18, 329.63, 440.0, 554.37, 659.26]
    static func chord(frames: Int) -> [Float] {
        (0..<frames).map { i in
            let t = Double(i) / rate
            return Float(partials.enumerated().reduce(0.0) { sum, p in sum + 0.08 / Double(p.offset + 1).squareRoot() * sin(2 * .pi * p.element * t + Double(p.offset)) })
        }
    }

    /// Render `seconds` with `settings` (voice 1 silent, the mix at level 1) and `music` on both inputs.
    func render(_ settings: [String: String], music: [Float], right: [Float]? = nil, seconds: Double) throws -> (left: [Float], right: [Float]) {
        var all = ["/entrain/level": "0", "/mix/level": "1", "/entrain/volume": "1"]
        for (k, v) in settings { all[k] = v }
        let host = try TestEngine.host(all)
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var position = 0
        let musicRight = right ?? music
        renderer.mixSource = { l, r, n in
            for i in 0..<n {
                l[i] = position + i < music.count ? music[position + i] : 0
                r[i] = position + i < musicRight.count ? musicRight[position + i] : 0
            }
            position += n
        }
        let frames = Int(seconds * Self.rate)
        var left = [Float](repeating: 0, count: frames), rightOut = [Float](repeating: 0, count: frames)
        left.withUnsafeMutableBufferPointer { l in
            rightOut.withUnsafeMutableBufferPointer { r in renderer.render(frames: frames, intoLeft: l.baseAddress!, right: r.baseAddress!) }
        }
        return (left, rightOut)
    }

    func testLevelOnlyPassesTheMusicThroughUnchanged() throws {
        let music = Self.chord(frames: 48_000)
        let (l, r) = try render(["/mix/level": "0.5"], music: music, seconds: 1)
        // The limiter's look-ahead delays everything by the same frames; past it, exactly half the music.
        let delay = try XCTUnwrap((0..<2000).first { l[$0] != 0 }) - (try XCTUnwrap((0..<2000).first { music[$0] != 0 }))
        XCTAssertEqual(delay, 71, "only the limiter's look-ahead (1.5 ms)")
        for i in stride(from: 600, to: 40_000, by: 997) {
            XCTAssertEqual(l[i], 0.5 * music[i - delay], accuracy: 1e-6)
            XCTAssertEqual(r[i], 0.5 * music[i - delay], accuracy: 1e-6)
        }
    }

    /// mixam at 10 Hz: a 10 Hz envelope on the music, as deep as set (the level's ratio of
    /// trough to crest, measured on a steady 440 Hz tone so the music's own envelope is flat).
    func testMixAMPutsItsRateAndDepthOnTheMusic() throws {
        let tone = (0..<(10 * 48_000)).map { Float(0.5 * sin(2 * .pi * 440 * Double($0) / Self.rate)) }
        for depth in [0.3, 0.6, 1.0] {
            let (l, _) = try render(["/mix/am/depth": "\(depth)", "/mix/am/rate": "10"], music: tone, seconds: 10)
            let body = Array(l[48_000..<(9 * 48_000)])
            XCTAssertEqual(Measure.envelopeRate(body, sampleRate: Self.rate, from: 2, to: 40), 10, accuracy: 0.05)
            let (crest, trough) = Self.envelopeExtremes(body)
            XCTAssertEqual(1 - trough / crest, depth, accuracy: 0.05, "depth \(depth)")
        }
        // And on the chord: the 10 Hz envelope is what stands out in the level.
        let (l, _) = try render(["/mix/am/depth": "0.5", "/mix/am/rate": "10"], music: Self.chord(frames: 480_000), seconds: 10)
        XCTAssertEqual(Measure.envelopeRate(Array(l[48_000...]), sampleRate: Self.rate, from: 2, to: 40), 10, accuracy: 0.05)
    }

    /// mixpulse gates with the isochronic voice's envelope: at depth 1 the music is silent
    /// between pulses for 1 − duty of each period, and the gate's rate is the envelope's.
    func testMixPulseGatesAtItsRateWithTheIsochronicEnvelope() throws {
        let tone = (0..<(4 * 48_000)).map { Float(0.5 * sin(2 * .pi * 440 * Double($0) / Self.rate)) }
        let (l, _) = try render(["/mix/pulse/depth": "1", "/mix/pulse/rate": "8", "/mix/pulse/duty": "0.4"], music: tone, seconds: 4)
        let body = Array(l[48_000..<(3 * 48_000)])
        XCTAssertEqual(Measure.envelopeRate(body, sampleRate: Self.rate, from: 2, to: 40), 8, accuracy: 0.05)
        let silent = stride(from: 0, to: body.count - 48, by: 48).filter { Measure.peak(body[$0..<($0 + 48)]) < 1e-6 }.count
        XCTAssertEqual(Double(silent) / Double(body.count / 48), 0.6, accuracy: 0.03, "off for 1 − duty of the time")
    }

    /// mixspin: the level difference between the ears swings at the spin rate, as wide as set.
    func testMixSpinSwingsTheInterChannelLevelDifferenceAtItsRate() throws {
        let tone = (0..<(6 * 48_000)).map { Float(0.4 * sin(2 * .pi * 330 * Double($0) / Self.rate)) }
        let (l, r) = try render(["/mix/spin/width": "0.8", "/mix/spin/rate": "2"], music: tone, seconds: 6)
        // Inter-channel level difference per 10 ms window (4 cycles of 330 Hz would be 12 ms: use 1/330 multiples).
        let window = 1455  // 10 cycles of 330 Hz
        var ild: [Float] = []
        for start in stride(from: 48_000, to: 5 * 48_000, by: window / 4) {
            let a = Measure.rms(l[start..<(start + window)]), b = Measure.rms(r[start..<(start + window)])
            ild.append(Float(20 * log10(a / b)))
        }
        let ildRate = Self.rate / Double(window / 4)
        let mean = ild.reduce(0, +) / Float(ild.count)
        let spectrum = Spectrum(ild.map { $0 - mean }, sampleRate: ildRate, window: .hann)
        XCTAssertEqual(spectrum.peak(from: 0.5, to: 10).frequency, 2, accuracy: 0.05, "the ILD oscillates at the spin rate")
        // Width 0.8: the far ear falls to cos(0.8·π/2) = 0.309 of its level, -10.2 dB, each way.
        // (A 30 ms window averages over 6 % of the turn, so the extremes read a little less.)
        XCTAssertEqual(Double(ild.max()!), 10.2, accuracy: 0.5)
        XCTAssertEqual(Double(ild.min()!), -10.2, accuracy: 0.5)
    }

    /// mixbeat at 6 Hz: 440 Hz in becomes 437 Hz left and 443 Hz right, with the other side
    /// far down; on a chord, every partial is split the same way (the ears' difference is the beat).
    func testMixBeatShiftsEachEarByHalfTheBeat() throws {
        let tone = (0..<(20 * 48_000)).map { Float(0.5 * sin(2 * .pi * 440 * Double($0) / Self.rate)) }
        let (l, r) = try render(["/mix/beat/depth": "1", "/mix/beat/rate": "6"], music: tone, seconds: 20)
        let left = Spectrum(Array(l[48_000...]), sampleRate: Self.rate), right = Spectrum(Array(r[48_000...]), sampleRate: Self.rate)
        XCTAssertEqual(left.peak(from: 400, to: 480).frequency, 437, accuracy: 0.15)
        XCTAssertEqual(right.peak(from: 400, to: 480).frequency, 443, accuracy: 0.15)
        let image = left.peak(from: 442, to: 444).magnitude, wanted = left.peak(from: 436, to: 438).magnitude
        XCTAssertGreaterThan(Measure.decibels(wanted / image), 40, "the other sideband is suppressed")

        let (cl, cr) = try render(["/mix/beat/depth": "1", "/mix/beat/rate": "6"], music: Self.chord(frames: 20 * 48_000), seconds: 20)
        let cleft = Spectrum(Array(cl[48_000...]), sampleRate: Self.rate), cright = Spectrum(Array(cr[48_000...]), sampleRate: Self.rate)
        for f in Self.partials {
            let a = cleft.peak(from: f - 10, to: f + 10).frequency, b = cright.peak(from: f - 10, to: f + 10).frequency
            XCTAssertEqual(a, f - 3, accuracy: 0.15, "left at \(f) Hz")
            XCTAssertEqual(b - a, 6, accuracy: 0.15, "the ears differ by the beat at \(f) Hz")
        }
    }

    /// Turning an effect on or off glides: no step larger than the music's own.
    func testEffectsGlideOnWithoutAClick() throws {
        let tone = (0..<(2 * 48_000)).map { Float(0.5 * sin(2 * .pi * 440 * Double($0) / Self.rate)) }
        let host = try TestEngine.host(["/entrain/level": "0", "/mix/level": "1", "/entrain/volume": "1"])
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var position = 0
        renderer.mixSource = { l, r, n in
            for i in 0..<n { l[i] = position + i < tone.count ? tone[position + i] : 0; r[i] = l[i] }
            position += n
        }
        try host.change("/mix/beat/depth", 1, at: 24_000)
        try host.change("/mix/pulse/depth", 1, at: 40_000)
        try host.change("/mix/spin/width", 1, at: 56_000)
        let (l, _) = { () -> ([Float], [Float]) in
            var a = [Float](repeating: 0, count: 90_000), b = a
            a.withUnsafeMutableBufferPointer { x in b.withUnsafeMutableBufferPointer { y in renderer.render(frames: 90_000, intoLeft: x.baseAddress!, right: y.baseAddress!) } }
            return (a, b)
        }()
        // The tone's own steepest step, plus what the pulse gate's 8 ms raised-cosine edge adds.
        let biggestStep = Float(0.5 * 2 * Double.pi * 443 / Self.rate) * 1.25
        XCTAssertLessThan(Measure.largestJump(l[1000...]), biggestStep)
    }

    /// Crest and trough of a 440 Hz tone's level: the RMS over four of its cycles (436 frames),
    /// every cycle.
    static func envelopeExtremes(_ x: [Float]) -> (Double, Double) {
        var levels: [Double] = []
        for start in stride(from: 0, to: x.count - 436, by: 109) { levels.append(Measure.rms(x[start..<(start + 436)])) }
        return (levels.max()!, levels.min()!)
    }
}
