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
}
