import EntrainDSP
import TestSupport
import XCTest

final class GranulatorTests: XCTestCase {
    /// Run `frames` frames of `input` (frame index → stereo sample) through a fresh granulator.
    func render(sampleRate: Double = 48_000, seed: UInt64 = 1, settings: Granulator.Settings, frames: Int,
                input: (Int) -> (Float, Float), each: ((Granulator) -> Void)? = nil) -> (l: [Float], r: [Float]) {
        var g = Granulator(sampleRate: sampleRate, seed: seed, settings: settings)
        defer { g.deallocate() }
        var l = [Float](repeating: 0, count: frames), r = l
        for i in 0..<frames {
            let x = input(i)
            (l[i], r[i]) = g.process(x.0, x.1)
            each?(g)
        }
        return (l, r)
    }

    /// Full-scale uniform white noise, independent per channel.
    func noiseInput(seed: UInt64 = 99) -> (Int) -> (Float, Float) {
        var random = RandomSource(seed: seed)
        return { _ in (random.nextBipolar(), random.nextBipolar()) }
    }

    /// Power of `x` at `frequency` (Goertzel).
    func power(_ x: ArraySlice<Float>, at frequency: Double, sampleRate: Double) -> Double {
        let k = 2 * cos(2 * Double.pi * frequency / sampleRate)
        var s1 = 0.0, s2 = 0.0
        for v in x { let s0 = Double(v) + k * s1 - s2; s2 = s1; s1 = s0 }
        return s1 * s1 + s2 * s2 - k * s1 * s2
    }

    func testPoolNeverHoldsMoreThan64Grains() {
        // At 44.1 kHz, 80 ticks/s and 800 ms grains want 64.03 grains at once: the pool must refuse some.
        var s = Granulator.Settings()
        s.grainProbability = 1; s.density = 80; s.grainSizeMilliseconds = 800
        var most = 0, started = 0
        let frames = 44_100 * 3
        _ = render(sampleRate: 44_100, settings: s, frames: frames, input: noiseInput()) {
            most = max(most, $0.activeGrains); started = $0.grainsStarted
        }
        XCTAssertEqual(most, 64)
        let attempts = frames / 551
        XCTAssertLessThan(started, attempts, "a full pool must drop spawn attempts")
        XCTAssertGreaterThan(started, 64)
    }

    func testOutputLevelWithFullScaleNoise() {
        var s = Granulator.Settings()  // defaults: 25 ticks/s, 50 ms grains, p 0.8, spread 0.6
        s.feedback = 0
        let out = render(settings: s, frames: 48_000 * 8, input: noiseInput())
        // Ticks every 1920 frames, grains 2400 frames: at most 2 overlap; |sample|, window, pan gain ≤ 1.
        let bound: Float = Granulator.outputGain * 2
        let steady = out.l[48_000...], steadyR = out.r[48_000...]
        XCTAssertLessThanOrEqual(Measure.peak(steady), bound)
        XCTAssertLessThanOrEqual(Measure.peak(steadyR), bound)
        // Expected power: 0.3² · (mean grains active = 0.8·2400/1920) · E[x²] = 1/3 · mean Hann² = 3/8
        // · E[pan gain²] = 1/2 (pan uniform in ±0.6, symmetric).
        let expected = 0.3 * (1.0 * (1.0 / 3) * 0.375 * 0.5).squareRoot()
        XCTAssertEqual(Measure.rms(steady), expected, accuracy: expected * 0.2)
        XCTAssertEqual(Measure.rms(steadyR), expected, accuracy: expected * 0.2)

        // A saturated pool stays within 64 grains' worth.
        s.grainProbability = 1; s.density = 80; s.grainSizeMilliseconds = 800
        let dense = render(settings: s, frames: 48_000 * 3, input: noiseInput())
        XCTAssertLessThanOrEqual(Measure.peak(dense.l), Granulator.outputGain * 64)
        // 64 uncorrelated grains add in power: 0.3 · √(64 · 1/3 · 3/8 · 1/2) = 0.6.
        XCTAssertEqual(Measure.rms(dense.l[48_000...]), 0.6, accuracy: 0.12)
    }

    func testOctaveUpMovesA440To880() {
        var s = Granulator.Settings()
        s.feedback = 0; s.pitchSpread = 0; s.stereoSpread = 0; s.transposeSemitones = 12
        let rate = 48_000.0
        let out = render(settings: s, frames: 48_000 * 2, input: { i in
            let v = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / rate)); return (v, v) })
        let tail = out.l[48_000...]  // the buffer now holds only the sine 200-410 ms back
        var best = (frequency: 0.0, power: 0.0)
        for f in stride(from: 200.0, through: 2000.0, by: 5.0) {
            let p = power(tail, at: f, sampleRate: rate)
            if p > best.power { best = (f, p) }
        }
        // Each grain is a 50 ms burst at a random phase, so the spectrum is a ~20 Hz wide hump:
        // its peak lies near 880 and its power-weighted centre on 880.
        XCTAssertEqual(best.frequency, 880, accuracy: 10)
        var weighted = 0.0, total = 0.0
        for f in stride(from: 600.0, through: 1200.0, by: 2.0) {
            let p = power(tail, at: f, sampleRate: rate)
            weighted += f * p; total += p
        }
        XCTAssertEqual(weighted / total, 880, accuracy: 3)
        XCTAssertGreaterThan(best.power, 100 * power(tail, at: 440, sampleRate: rate))

        // And unison stays at 440.
        s.transposeSemitones = 0
        let plain = render(settings: s, frames: 48_000 * 2, input: { i in
            let v = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / rate)); return (v, v) })
        XCTAssertGreaterThan(power(plain.l[48_000...], at: 440, sampleRate: rate),
                             100 * power(plain.l[48_000...], at: 880, sampleRate: rate))
    }

    /// Onsets per second follow floor(sr/density) exactly with probability 1, and scale with the probability.
    func testDensitySetsTheOnsetRate() {
        // 48 kHz / 11 = 4363.6: floor gives 44 onsets in 4 s, rounding would give 43.
        for (rate, density) in [(48_000.0, 5.0), (48_000.0, 25.0), (48_000.0, 11.0), (44_100.0, 80.0)] {
            var s = Granulator.Settings()
            s.grainProbability = 1; s.density = density; s.grainSizeMilliseconds = 5
            let frames = Int(rate) * 4
            var started = 0
            _ = render(sampleRate: rate, settings: s, frames: frames, input: noiseInput()) { started = $0.grainsStarted }
            XCTAssertEqual(started, frames / Int(rate / density), "\(density) at \(rate)")
        }
        var s = Granulator.Settings()
        s.grainProbability = 0.5; s.density = 80; s.grainSizeMilliseconds = 5
        var started = 0
        _ = render(settings: s, frames: 48_000 * 10, input: noiseInput()) { started = $0.grainsStarted }
        XCTAssertEqual(Double(started), 400, accuracy: 45)  // 800 ticks × 0.5, ±4.5 σ
    }

    func testSeedDecidesTheOutput() {
        var s = Granulator.Settings()
        s.pitchMode = .random; s.pitchSpread = 7
        let a = render(seed: 7, settings: s, frames: 48_000, input: noiseInput())
        let b = render(seed: 7, settings: s, frames: 48_000, input: noiseInput())
        let c = render(seed: 8, settings: s, frames: 48_000, input: noiseInput())
        XCTAssertNil(Measure.firstDifference(a.l, b.l))
        XCTAssertNil(Measure.firstDifference(a.r, b.r))
        XCTAssertNotNil(Measure.firstDifference(a.l, c.l))
    }

    func testSilenceBecomesAPinkNoiseBed() {
        var s = Granulator.Settings()
        s.feedback = 0
        let out = render(settings: s, frames: 48_000 * 8, input: { _ in (0, 0) })
        // After 4.5 s the pre-filled buffer is overwritten; what plays is the silence fill.
        let rms = Measure.rms(out.l[(48_000 * 6)...])
        // The fill is Kellet pink (RMS ≈ 1.76 for uniform white) × 0.2 × 0.3 ≈ 0.105; through
        // defaults (1 grain on average, Hann² 3/8, pan² 1/2) and × 0.3 that is ≈ 0.0137.
        XCTAssertEqual(rms, 0.0137, accuracy: 0.0137 * 0.25)
    }

    func testExtremeSettingsStayFinite() {
        var cases: [Granulator.Settings] = []
        for (density, size, spread, mode, feedback) in [(80.0, 800.0, 12.0, Granulator.PitchMode.harmonic, 0.35),
                                                        (5.0, 5.0, 12.0, .random, 0.35),
                                                        (1e9, -1.0, 1e9, .random, 10),
                                                        (.nan, .nan, .nan, .harmonic, .nan),
                                                        (0, .infinity, -.infinity, .random, -.infinity)] {
            var s = Granulator.Settings()
            s.grainProbability = 1; s.density = density; s.grainSizeMilliseconds = size
            s.pitchSpread = spread; s.pitchMode = mode; s.feedback = feedback
            s.sprayMilliseconds = spread > 100 ? 600 : 0; s.jitterMilliseconds = 30
            s.stereoSpread = 1; s.transposeSemitones = spread
            cases.append(s)
        }
        for (n, s) in cases.enumerated() {
            let out = render(settings: s, frames: 48_000 * 2, input: { i in i % 2 == 0 ? (4, -4) : (-4, 4) })
            XCTAssertTrue(out.l.allSatisfy(\.isFinite) && out.r.allSatisfy(\.isFinite), "case \(n)")
            // Buffer holds input + tanh feedback ≤ 5 in magnitude.
            XCTAssertLessThanOrEqual(Measure.peak(out.l), Granulator.outputGain * 64 * 5, "case \(n)")
        }
    }

    /// A loaded sequence replaces the seeded draws: its first value of each attempt is the
    /// probability draw, and harmonic/pan draws of 0 give unison hard left.
    func testLoadedSequenceDrivesTheDraws() {
        var s = Granulator.Settings()
        s.grainProbability = 0.8; s.density = 25; s.stereoSpread = 1; s.pitchSpread = 12
        func started(_ value: Float) -> (started: Int, right: Float) {
            var g = Granulator(sampleRate: 48_000, seed: 3, settings: s)
            defer { g.deallocate() }
            [Float](repeating: value, count: 10_000).withUnsafeBufferPointer { g.loadSequence($0) }
            var peakR: Float = 0
            for i in 0..<48_000 { peakR = max(peakR, abs(g.process(i % 2 == 0 ? 0.5 : -0.5, 0.5).1)) }
            return (g.grainsStarted, peakR)
        }
        XCTAssertEqual(started(0.9).started, 0)  // 0.9 > 0.8 every time
        let low = started(0)
        XCTAssertEqual(low.started, 48_000 / 1920)
        XCTAssertLessThan(low.right, 1e-6)  // pan −1: right gain cos(π/2) ≈ 0
        XCTAssertEqual(started(.nan).started, 48_000 / 1920)  // NaN is read as 0, not a crash
    }
}
