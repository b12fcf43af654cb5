import EntrainDSP
import XCTest

final class PadVoiceTests: XCTestCase {
    let rate = 48_000.0
    lazy var bank = WavetableBank.shared(sampleRate: rate)

    /// Power of `signal` at `frequency` (Goertzel).
    func power(_ signal: [Float], at frequency: Double) -> Double {
        let w = 2 * Double.pi * frequency / rate
        let c = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for x in signal {
            let s = Double(x) + c * s1 - s2
            s2 = s1; s1 = s
        }
        return (s1 * s1 + s2 * s2 - c * s1 * s2) / Double(signal.count * signal.count)
    }

    /// Left channel of a voice held at full level (no envelope motion), after settling.
    func render(_ timbre: PadVoice.Timbre, frequency: Double, seed: UInt64 = 1,
                cutoff: Double = 20_000, seconds: Double = 0.5) -> (left: [Float], right: [Float]) {
        var voice = PadVoice(sampleRate: rate, bank: bank, seed: seed, timbre: timbre)
        defer { voice.deallocate() }
        voice.setFilter(.lowpass, cutoff: cutoff, q: 0)
        voice.play(frequency: frequency, envelope: PadEnvelope(attack: 0.001, decay: 0.001, sustain: 1, release: 1),
                   atFrame: 0)
        for _ in 0..<Int(0.1 * rate) { _ = voice.next() }
        var l: [Float] = [], r: [Float] = []
        for _ in 0..<Int(seconds * rate) { let s = voice.next(); l.append(s.left); r.append(s.right) }
        return (l, r)
    }

    func testSinePeakIsAtTheFundamental() {
        let f = 220.0
        let timbre = PadVoice.Timbre(oscBrightness: 0, detuneCents: 7, warmth: 0, presence: 0.5, hardness: 0, airNoise: 0)
        let out = render(timbre, frequency: f).left
        let atF = power(out, at: f)
        // Scan 50 Hz–5 kHz in 10 Hz steps: nothing else comes close.
        var best = (frequency: 0.0, power: 0.0)
        for bin in stride(from: 50.0, through: 5000, by: 10) {
            let p = power(out, at: bin)
            if p > best.power { best = (bin, p) }
        }
        XCTAssertEqual(best.frequency, f)
        // A full-scale sine into tanh(x)/tanh(1) keeps some third harmonic, about −20 dB.
        XCTAssertGreaterThan(atF, 30 * power(out, at: 3 * f))
        XCTAssertEqual(out, render(timbre, frequency: f).right)  // mono without noise
    }

    func testBrightnessThreeHasMuchMoreThirdHarmonic() {
        let f = 220.0
        var timbre = PadVoice.Timbre(oscBrightness: 0, detuneCents: 0, warmth: 0, presence: 0.5, hardness: 0, airNoise: 0)
        let dark = render(timbre, frequency: f).left
        timbre.oscBrightness = 3
        let bright = render(timbre, frequency: f).left
        let ratioDark = power(dark, at: 3 * f) / power(dark, at: f)
        let ratioBright = power(bright, at: 3 * f) / power(bright, at: f)
        print("3f/f power: brightness 0 \(ratioDark), brightness 3 \(ratioBright)")
        XCTAssertGreaterThan(ratioBright, 10 * ratioDark)
        XCTAssertGreaterThan(ratioBright, 0.05)  // saw: (1/3)² ≈ 0.11 before the shaper
    }

    func testAttackReachesNinetyFivePercentAtA() {
        let adsr = PadEnvelope(attack: 0.5, decay: 0.2, sustain: 0.7, release: 1)
        var voice = PadVoice(sampleRate: rate, bank: bank, seed: 3)
        defer { voice.deallocate() }
        voice.play(frequency: 110, envelope: adsr, atFrame: 0)
        var gain: [Double] = []
        for _ in 0...Int(adsr.attack * rate) { gain.append(voice.envelope.value); _ = voice.next() }
        XCTAssertEqual(gain.last!, 1 - exp(-3.0), accuracy: 1e-3)
        XCTAssertEqual(gain[0], 0)
    }

    func testCrossfadeStepsPitchAtHalfRelease() {
        let adsr = PadEnvelope(attack: 0.1, decay: 0.1, sustain: 0.8, release: 0.4)
        var voice = PadVoice(sampleRate: rate, bank: bank, seed: 3)
        defer { voice.deallocate() }
        voice.play(frequency: 110, envelope: adsr, atFrame: 0)
        for _ in 0..<1000 { _ = voice.next() }
        voice.play(frequency: 220, envelope: adsr, atFrame: 1000)
        for _ in 0..<Int(0.2 * rate) - 1 { _ = voice.next() }
        XCTAssertEqual(voice.currentFrequency, 110)
        _ = voice.next(); _ = voice.next()
        XCTAssertEqual(voice.currentFrequency, 220)
    }

    func testOutputIsBoundedAndStereoThroughNoise() {
        let timbre = PadVoice.Timbre(oscBrightness: 3, detuneCents: 12, warmth: 1, presence: 1, hardness: 1, airNoise: 1)
        let out = render(timbre, frequency: 80, cutoff: 8000)
        let peak = (out.left + out.right).map { abs($0) }.max()!
        // Shaper ≤ 1, ×0.15, envelope ≤ 1; the oversampler's decimation filter may ring a little past that.
        XCTAssertLessThanOrEqual(peak, 0.15 * 1.12)
        XCTAssertGreaterThan(peak, 0.05)
        XCTAssertNotEqual(out.left, out.right)
        XCTAssertFalse(out.left.contains { !$0.isFinite })
    }

    func testSeededVoicesAreDeterministic() {
        let timbre = PadVoice.Timbre(airNoise: 1)
        let a = render(timbre, frequency: 147, seed: 42, cutoff: 3000, seconds: 0.2)
        let b = render(timbre, frequency: 147, seed: 42, cutoff: 3000, seconds: 0.2)
        let c = render(timbre, frequency: 147, seed: 43, cutoff: 3000, seconds: 0.2)
        XCTAssertEqual(a.left, b.left)
        XCTAssertEqual(a.right, b.right)
        XCTAssertNotEqual(a.left, c.left)
    }

    func testOversamplerIsTransparentBelowAQuarterOfTheRate() {
        var os = HalfbandOversampler()
        defer { os.deallocate() }
        let f = 3000.0
        var out: [Float] = []
        for n in 0..<4800 {
            let x = Float(sin(2 * Double.pi * f * Double(n) / rate))
            out.append(os.process(SIMD2(x, -x)) { $0 }[0])
        }
        // Identity shape: a delayed copy of the input (latency 15 frames), passband within 0.1 dB.
        for n in 1000..<1100 {
            let expected = Float(sin(2 * Double.pi * f * Double(n - os.latency) / rate))
            XCTAssertEqual(out[n], expected, accuracy: 0.012)
        }
        os.reset()
        var dc: Float = 0
        for _ in 0..<100 { dc = os.process(SIMD2(0.5, 0.5)) { $0 }[0] }
        XCTAssertEqual(dc, 0.5, accuracy: 1e-6)
    }

    func testFilterCutoffGlidesWithFiftyMillisecondTimeConstant() {
        var voice = PadVoice(sampleRate: rate, bank: bank, seed: 3)
        defer { voice.deallocate() }
        XCTAssertEqual(voice.filterCutoff, 3000)
        voice.setFilter(.lowpass, cutoff: 1000, q: 1)
        for _ in 0..<Int(0.05 * rate) { _ = voice.next() }
        // 1 − 1/e of the way after τ, within one 16-frame control step.
        XCTAssertEqual(voice.filterCutoff, 3000 - 2000 * (1 - exp(-1.0)), accuracy: 2000 * 0.01)
        for _ in 0..<Int(1 * rate) { _ = voice.next() }
        XCTAssertEqual(voice.filterCutoff, 1000)
    }

    func testShaperCurveIsNormalisedTanh() {
        var shaper = TanhShaper(hardness: 0.5)
        defer { shaper.deallocate() }
        XCTAssertEqual(shaper.process(1), 1, accuracy: 1e-6)
        XCTAssertEqual(shaper.process(-3), -1, accuracy: 1e-6)
        XCTAssertEqual(shaper.process(0.5), Float(tanh(1.25) / tanh(2.5)), accuracy: 1e-3)
        shaper.setHardness(0)
        XCTAssertEqual(shaper.process(0.5), Float(tanh(0.5) / tanh(1.0)), accuracy: 1e-3)
    }
}
