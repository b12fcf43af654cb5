@testable import EntrainAmbient
import EntrainDSP
import Kessho
import TestSupport
import XCTest

/// The drum keys that shape a hit's detail — the click's exciter colour, the high beep's operator
/// feedback, start phase and noise, the pluck's damping, the noise voice's breath and particles,
/// the membrane's strike position and wires — each measured in the voice's own output.
extension DrumVoiceTests {
    func energy(_ x: ArraySlice<Float>, _ lo: Double, _ hi: Double, size: Int = 8192) -> Double {
        var block = Array(x.prefix(size))
        block += [Float](repeating: 0, count: size - block.count)
        let s = Spectrum(block, sampleRate: rate)
        return (s.bin(of: lo)...s.bin(of: hi)).reduce(0) { $0 + s.magnitudes[$1] * s.magnitudes[$1] }
    }

    func windowRMS(_ x: [Float], milliseconds: Double) -> [Double] {
        let w = Int(milliseconds / 1000 * rate)
        return stride(from: 0, to: x.count - w, by: w).map { Measure.rms(x[$0..<($0 + w)]) }
    }

    /// Colour 0.5 is the tonal sweep alone (energy at its pitch); 1 is noise alone; below 0.01
    /// the chosen mode plays as before, sample for sample.
    func testClickExciterColourBlendsTheModes() {
        let base: [String: KesshoValue] = ["drumClickPitch": .number(2000), "drumClickDecay": .number(300),
                                          "drumClickFilter": .number(12000)]
        func click(_ colour: Double) -> [Float] {
            render(sound(.click, base.merging(["drumClickExciterColor": .number(colour)]) { $1 })).samples
        }
        let impulse = click(0), tonal = click(0.5), noise = click(1)
        XCTAssertEqual(click(0.005), impulse, "below 0.01 the mode is unchanged")
        func share(_ x: [Float]) -> Double { energy(x[...], 1900, 2100) / energy(x[...], 100, 20_000) }
        XCTAssertGreaterThan(share(tonal), 0.5, "colour 0.5: the 2 kHz tone carries most of the energy")
        XCTAssertLessThan(share(impulse), 0.05)
        XCTAssertLessThan(share(noise), 0.05, "colour 1: noise, no tone")
        XCTAssertGreaterThan(Measure.rms(noise[Int(0.06 * rate)..<Int(0.07 * rate)]),
                             10 * Measure.rms(impulse[Int(0.06 * rate)..<Int(0.07 * rate)]), "the noise burst outlasts the impulse")
    }

    /// The modulator's start phase changes the attack; its feedback adds the sidebands of its own
    /// harmonics; noise into it spreads energy across the band for its decay.
    func testHighBeepFeedbackStartPhaseAndNoise() {
        let base: [String: KesshoValue] = ["drumBeepHiTone": .number(1), "drumBeepHiModRatio": .number(0.5),
                                          "drumBeepHiModRatioFine": .number(0.01), "drumBeepHiDecay": .number(400)]
        func beep(_ changes: [String: KesshoValue]) -> [Float] {
            render(sound(.beepHi, base.merging(changes) { $1 })).samples
        }
        let plain = beep([:])
        let turned = beep(["drumBeepHiModPhase": .number(0.25)])
        XCTAssertEqual(plain.count, turned.count)
        let attack = zip(plain.prefix(480), turned.prefix(480)).map { Double(abs($0 - $1)) }.max() ?? 0
        XCTAssertGreaterThan(attack, 0.05, "a quarter-turn start phase changes the first 10 ms")
        // Feedback makes the modulator's wave no longer a sine: the sidebands' shares move.
        func shares(_ x: [Float]) -> [Double] {
            let bands = [(1860.0, 2060.0), (3900.0, 4100.0), (5940.0, 6140.0), (7980.0, 8180.0), (9900.0, 10_300.0)]
            let e = bands.map { energy(x[...], $0.0, $0.1) }
            let total = e.reduce(0, +)
            return e.map { $0 / total }
        }
        let fed = beep(["drumBeepHiFeedback": .number(0.9)])
        let moved = zip(shares(fed), shares(plain)).map { abs($0 - $1) }.reduce(0, +)
        XCTAssertGreaterThan(moved, 0.2, "feedback 0.9 moves at least a fifth of the energy between sidebands")
        XCTAssertEqual(beep(["drumBeepHiFeedback": .number(0)]), plain)
        // Noise into the modulator jitters the carrier: energy between the carrier (4 kHz) and
        // its lower sideband (1.96 kHz), where the clean tone has none; gone after its decay.
        let noisy = beep(["drumBeepHiNoiseInMod": .number(1), "drumBeepHiNoiseDecay": .number(1)])
        XCTAssertGreaterThan(energy(noisy.prefix(2048), 2600, 3500, size: 2048), 4 * energy(plain.prefix(2048), 2600, 3500, size: 2048),
                             "noise into the modulator spreads the first 40 ms")
        let late = Int(0.2 * rate)
        XCTAssertLessThan(energy(noisy[late...], 2600, 3500, size: 2048), 2 * energy(plain[late...], 2600, 3500, size: 2048) + 1e-9,
                          "and is gone after its 50 ms decay")
    }

    /// The pluck is a string: harmonics of the pitch (the sine path has none), which the damping
    /// takes away.
    func testLowBeepPluckIsAStringTheDampingDarkens() {
        func pluck(_ amount: Double, _ damp: Double) -> [Float] {
            render(sound(.beepLo, ["drumBeepLoPluck": .number(amount), "drumBeepLoPluckDamp": .number(damp),
                                   "drumBeepLoDecay": .number(600)])).samples
        }
        let none = pluck(0, 0), bright = pluck(1, 0), muted = pluck(1, 1)
        XCTAssertEqual(dominant(bright, from: 1000, to: 1400, skip: 0.01), 1200, accuracy: 12, "the third harmonic of 400 Hz")
        let harmonics = { (x: [Float]) in self.energy(x.prefix(1024), 1100, 3000, size: 1024) }
        XCTAssertGreaterThan(harmonics(bright), 100 * harmonics(none), "the string's harmonics")
        XCTAssertGreaterThan(harmonics(bright), 10 * harmonics(muted), "damping 1 mutes them")
    }

    /// Breath: the noise flutters at 8–12 Hz. Particles: density 0.2 leaves most of the hit silent
    /// between 5 ms grains; density 1 is continuous.
    func testNoiseBreathAndParticles() {
        let base: [String: KesshoValue] = ["drumNoiseDecay": .number(15000), "drumNoiseFilterType": .string("lowpass"),
                                          "drumNoiseFilterFreq": .number(15000)]
        func noise(_ changes: [String: KesshoValue]) -> [Float] {
            render(sound(.noise, base.merging(changes) { $1 }), seconds: 1.2).samples
        }
        let breath = windowRMS(noise(["drumNoiseBreath": .number(1)]), milliseconds: 5)
        let steady = windowRMS(noise([:]), milliseconds: 5)
        let part = Array(breath[10..<210]), calm = Array(steady[10..<210])  // 50 ms … 1.05 s
        XCTAssertLessThan(part.min()! / part.max()!, 0.15, "breath: deep flutter")
        XCTAssertGreaterThan(calm.min()! / calm.max()!, 0.3, "without breath: steady")
        let mean = part.reduce(0, +) / Double(part.count)
        let crossings = zip(part, part.dropFirst()).filter { ($0 - mean) * ($1 - mean) < 0 }.count
        XCTAssertEqual(Double(crossings) / 2, 10, accuracy: 2.5, "8–12 flutters a second")

        let grains = windowRMS(noise(["drumNoiseDensity": .number(0.2), "drumNoiseParticleSize": .number(5)]), milliseconds: 1)
        let dense = windowRMS(noise(["drumNoiseDensity": .number(1)]), milliseconds: 1)
        func silentShare(_ w: [Double]) -> Double {
            let top = w.max()!
            return Double(w.prefix(800).filter { $0 < 0.01 * top }.count) / 800
        }
        XCTAssertGreaterThan(silentShare(grains), 0.6, "one 5 ms grain every 25 ms")
        XCTAssertLessThan(silentShare(dense), 0.01)
    }

    /// Struck at the centre the membrane loses its second mode (1.59 × the fundamental); at the
    /// rim it keeps it. The wires' tone moves their band up; their density makes them rattle.
    func testMembraneStrikePositionAndWires() {
        let base: [String: KesshoValue] = ["drumMembraneDecay": .number(1500), "drumMembraneWireMix": .number(0),
                                          "drumMembraneBody": .number(0), "drumMembraneOvertones": .number(4)]
        func membrane(_ changes: [String: KesshoValue]) -> [Float] {
            render(sound(.membrane, base.merging(changes) { $1 })).samples
        }
        func secondMode(_ x: [Float]) -> Double { energy(x[...], 270, 300) / energy(x[...], 170, 190) }
        let centre = secondMode(membrane(["drumMembraneExcPos": .number(0)]))
        let rim = secondMode(membrane(["drumMembraneExcPos": .number(1)]))
        XCTAssertGreaterThan(rim, 30 * centre, "the centre does not excite the second mode")

        let wires: [String: KesshoValue] = ["drumMembraneWireMix": .number(1), "drumMembraneWireDensity": .number(0)]
        func centroid(_ x: [Float]) -> Double {
            let s = Spectrum(Array(x.prefix(8192)), sampleRate: rate)
            var sum = 0.0, weighted = 0.0
            for k in s.bin(of: 1000)...s.bin(of: 16_000) {
                let e = s.magnitudes[k] * s.magnitudes[k]
                sum += e
                weighted += e * Double(k) * s.binWidth
            }
            return weighted / sum
        }
        let dark = centroid(membrane(wires.merging(["drumMembraneWireTone": .number(0)]) { $1 }))
        let bright = centroid(membrane(wires.merging(["drumMembraneWireTone": .number(1)]) { $1 }))
        XCTAssertGreaterThan(bright, dark + 2000, "wire tone moves their band up")
        func rattle(_ density: Double) -> Double {
            let x = membrane(wires.merging(["drumMembraneWireDensity": .number(density), "drumMembraneExcPos": .number(0.5)]) { $1 })
            let squared = x.prefix(16384).map { $0 * $0 }
            return energy(squared[...], 480, 520, size: 16384) / energy(squared[...], 560, 900, size: 16384)
        }
        XCTAssertGreaterThan(rattle(1), 5 * rattle(0), "density 1: the wires slap 500 times a second")
    }
}
