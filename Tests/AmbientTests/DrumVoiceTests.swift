@testable import EntrainAmbient
import EntrainDSP
import Kessho
import TestSupport
import XCTest

/// The seven drum voices from the web's default keys, measured in their own output.
final class DrumVoiceTests: XCTestCase {
    let rate = 48_000.0

    func sound(_ voice: DrumSound.Voice, _ changes: [String: KesshoValue] = [:]) -> DrumSound {
        var s = KesshoState.defaults
        for (k, v) in changes { s[k] = v }
        var side = Mulberry32(seed: 1)
        return KesshoDrumHit.sound(voice, velocity: 1, state: s, sliders: KesshoSliders(), engine: { 0.5 }, side: &side, seed: 7)
    }

    func render(_ sound: DrumSound, seconds: Double = 3) -> (samples: [Float], frames: Int) {
        var v = DrumVoice()
        v.start(sound, sampleRate: rate)
        var out: [Float] = []
        while v.active && out.count < Int(seconds * rate) { out.append(v.next()) }
        return (out, out.count)
    }

    /// Every voice sounds (peak between −40 and +6 dBFS at level × velocity ≤ 1), stays finite,
    /// and frees itself once its decay is over.
    func testEveryVoiceSoundsAndEnds() {
        for voice in DrumSound.Voice.allCases {
            let s = sound(voice)
            let (out, frames) = render(s)
            XCTAssertTrue(out.allSatisfy(\.isFinite), "\(voice)")
            let peak = Measure.peak(out)
            XCTAssertGreaterThan(peak, 0.01, "\(voice) sounds")
            XCTAssertLessThan(peak, 2, "\(voice) stays sane")
            XCTAssertLessThan(frames, Int(2.9 * rate), "\(voice) ends")
            XCTAssertLessThan(Measure.peak(out.suffix(max(frames / 10, 1))), peak * 0.02, "\(voice) has died away by its end")
        }
    }

    /// Granular clicks: n grains spread over the given time (later grains sound after the first
    /// has died away); the noise voice's formants put energy round 700–2500 Hz.
    func testGranularClicksAndFormants() {
        let one = render(sound(.click, ["drumClickMode": .string("granular"), "drumClickDecay": .number(5)])).samples
        let many = render(sound(.click, ["drumClickMode": .string("granular"), "drumClickDecay": .number(5),
                                         "drumClickGrainCount": .number(6), "drumClickGrainSpread": .number(40)])).samples
        XCTAssertGreaterThan(many.count, one.count + Int(0.03 * rate), "the grains spread over 40 ms")
        XCTAssertGreaterThan(Measure.peak(many[Int(0.01 * rate)...]), 0.05 * Measure.peak(many), "later grains sound")
        let plain = render(sound(.noise, ["drumNoiseFilterType": .string("lowpass"), "drumNoiseFilterFreq": .number(15000),
                                          "drumNoiseDecay": .number(400)])).samples
        let vowel = render(sound(.noise, ["drumNoiseFilterType": .string("lowpass"), "drumNoiseFilterFreq": .number(15000),
                                          "drumNoiseDecay": .number(400), "drumNoiseFormant": .number(1)])).samples
        func band(_ x: [Float], _ lo: Double, _ hi: Double) -> Double {
            let s = Spectrum(Array(x[..<8192]), sampleRate: rate)
            return (s.bin(of: lo)...s.bin(of: hi)).reduce(0) { $0 + s.magnitudes[$1] * s.magnitudes[$1] }
        }
        let ratioPlain = band(plain, 1100, 1300) / band(plain, 5000, 8000)
        let ratioVowel = band(vowel, 1100, 1300) / band(vowel, 5000, 8000)
        XCTAssertGreaterThan(ratioVowel, 10 * ratioPlain, "the 1200 Hz formant stands out")
    }

    func dominant(_ out: [Float], from: Double, to: Double, skip: Double) -> Double {
        let start = Int(skip * rate)
        return Spectrum(Array(out[start..<min(out.count, start + 8192)]), sampleRate: rate).peak(from: from, to: to).frequency
    }

    /// Pitches: the kick sweeps down to its frequency, the high beep rings at its own, the
    /// membrane at size × (0.5 + tension), the sub at its frequency.
    func testVoicesRingAtTheirPitches() {
        let kick = render(sound(.kick, ["drumKickDecay": .number(1500), "drumKickBody": .number(0)])).samples
        XCTAssertEqual(dominant(kick, from: 30, to: 400, skip: 0.1), 55, accuracy: 6)
        let hi = render(sound(.beepHi, ["drumBeepHiDecay": .number(800), "drumBeepHiTone": .number(0)])).samples
        XCTAssertEqual(dominant(hi, from: 1000, to: 12_000, skip: 0.01), 4000, accuracy: 12)
        let membrane = render(sound(.membrane, ["drumMembraneDecay": .number(1500), "drumMembraneWireMix": .number(0)])).samples
        XCTAssertEqual(dominant(membrane, from: 60, to: 1000, skip: 0.05), 180, accuracy: 12)
        let sub = render(sound(.sub, ["drumSubDecay": .number(2000)])).samples
        XCTAssertEqual(dominant(sub, from: 20, to: 200, skip: 0.2), 50, accuracy: 6)
    }

    /// Distance: the edge is quieter and shorter than the centre (the web's strike position).
    func testDistanceChangesLevelAndLength() {
        let centre = render(sound(.kick, ["drumKickDistance": .number(0)])), edge = render(sound(.kick, ["drumKickDistance": .number(1)]))
        XCTAssertGreaterThan(centre.frames, 3 * edge.frames)
        XCTAssertGreaterThan(Measure.peak(centre.samples), Measure.peak(edge.samples))
    }

    /// A sample-and-hold morph between two presets of a voice draws its position per hit.
    func testSampleAndHoldMorphDrawsPerHit() {
        var s = KesshoState.defaults
        s["drumKickPresetA"] = .string("Soft Thud")
        s["drumKickPresetB"] = .string("Far Boom")
        var sliders = KesshoSliders()
        sliders.modes["drumKickMorph"] = .sampleHold
        sliders.ranges["drumKickMorph"] = KesshoDualRange(min: 0, max: 1)
        var side = Mulberry32(seed: 3)
        let decays = (0..<20).map { _ in
            KesshoDrumHit.sound(.kick, velocity: 1, state: s, sliders: sliders, engine: { 0.5 }, side: &side, seed: 1).decay
        }
        XCTAssertTrue(decays.allSatisfy { (110...1300).contains($0) }, "\(decays)")
        XCTAssertGreaterThan(Set(decays).count, 15, "a fresh position per hit")
    }

    /// drumKickMorphAuto moves the voice between its presets as the web's morph animation does
    /// (it changed nothing: bit-identical renders): MorphSpeed cycles a minute, pingpong a
    /// triangle, linear a sawtooth, random held at 0; off, the morph slider's own position.
    func testMorphAutoMovesTheVoiceBetweenItsPresets() {
        var s = KesshoState.defaults
        s["drumKickPresetA"] = .string("Soft Thud")
        s["drumKickPresetB"] = .string("Far Boom")
        s["drumKickMorphAuto"] = .bool(true)
        s["drumKickMorphSpeed"] = .number(6)  // a cycle every 10 s
        func decay(at seconds: Double, mode: String) -> Double {
            s["drumKickMorphMode"] = .string(mode)
            var side = Mulberry32(seed: 3)
            return KesshoDrumHit.sound(.kick, velocity: 1, state: s, sliders: KesshoSliders(), engine: { 0.5 }, side: &side, seed: 1,
                                       seconds: seconds).decay
        }
        let a = decay(at: 0, mode: "pingpong"), b = decay(at: 5, mode: "pingpong")
        XCTAssertNotEqual(a, b, "preset A at 0 s, preset B half a cycle on")
        XCTAssertEqual(decay(at: 10, mode: "pingpong"), a, accuracy: 1e-9, "back at A after a cycle")
        XCTAssertEqual(decay(at: 2.5, mode: "pingpong"), decay(at: 7.5, mode: "pingpong"), accuracy: 1e-9, "a triangle")
        XCTAssertEqual(decay(at: 9.999, mode: "linear"), b, accuracy: abs(b - a) * 0.01, "a sawtooth up to B")
        XCTAssertEqual(decay(at: 5, mode: "random"), a, accuracy: 1e-9, "random stays at 0, as on the web")
        XCTAssertEqual(KesshoDrumHit.animatedMorph(mode: "pingpong", cyclesPerMinute: 6, seconds: 2.5), 0.5, accuracy: 1e-12)
        s["drumKickMorphAuto"] = .bool(false)
        XCTAssertEqual(decay(at: 5, mode: "pingpong"), decay(at: 0, mode: "pingpong"), "off: no animation")
    }
}
