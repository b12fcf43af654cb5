import EntrainDSP
import Foundation
import TestSupport
import XCTest

/// The lead's FM voice measured in its own output: Bessel sideband levels, routings, envelope.
final class FMVoiceTests: XCTestCase {
    let rate = 48_000.0
    let sine = SineTable()

    override func tearDown() { sine.deallocate() }

    /// A steady patch: one carrier, no transient, a filter far above the partials, the
    /// modulation depth constant (sustain fraction 1).
    func steadyPatch(index: Double, algorithm: FMPatch.Algorithm = .parallel) -> FMPatch {
        var p = FMPatch()
        p.algorithm = algorithm
        p.carrier2Mix = 0
        p.ratio = [1, 1, 1, 1]
        p.index = [index, 0, 0, 0]
        p.modDecay = [100, 100, 100, 100]
        p.mod1Sustain = 1
        p.attack = 0.001; p.decay = 0.01; p.sustain = 1; p.hold = 10; p.release = 1
        p.filterFrequency = 20_000; p.filterQ = 0
        p.gain = 1
        return p
    }

    func render(_ note: FMNote, seconds: Double, skip: Double = 0.2) -> [Float] {
        var voice = FMVoice()
        voice.start(note, sampleRate: rate)
        for _ in 0..<Int(skip * rate) { _ = voice.next(sine) }
        return (0..<Int(seconds * rate)).map { _ in voice.next(sine).x }
    }

    /// J_n(x) by its power series (plenty for x ≤ 3).
    func bessel(_ n: Int, _ x: Double) -> Double {
        if n < 0 { return (n % 2 == 0 ? 1 : -1) * bessel(-n, x) }
        var sum = 0.0, term = pow(x / 2, Double(n)) / tgamma(Double(n + 1))
        for m in 0..<40 {
            sum += term
            term *= -(x * x / 4) / Double((m + 1) * (m + 1 + n))
        }
        return sum
    }

    /// One modulator at ratio 1 on a 300 Hz carrier: sidebands at f ± k·f with Bessel levels
    /// J_k(β), β = index × velocity (modulator 1 is scaled by velocity). With ratio 1 they land
    /// on the harmonics, the lower ones folded over 0 Hz. Both oscillators start at phase 0, so
    /// the carrier runs at θ + β − β·cos θ and component m = 1 + k is (−i)^k·J_k(β)·e^{iβ};
    /// harmonic n is then |c_n − conj(c_−n)|. Levels are measured against a plain sine.
    func testOneModulatorAtRatioOneGivesBesselSidebands() {
        func render(index: Double, velocity: Double) -> Spectrum {
            var note = FMNote()
            note.patch = steadyPatch(index: index)
            note.frequency = 300
            note.velocity = velocity
            return Spectrum(self.render(note, seconds: 1), sampleRate: rate)
        }
        // A plain sine at velocity 1: amplitude cos(π/4) (centre pan).
        let unit = render(index: 0, velocity: 1).peak(from: 290, to: 310).magnitude
        for (index, velocity) in [(1.0, 1.0), (2.4, 0.5), (2.0, 1.0)] {
            let beta = index * velocity
            let spectrum = render(index: index, velocity: velocity)
            // (−i)^k J_k(β) e^{iβ} as (re, im).
            func component(_ m: Int) -> (Double, Double) {
                let k = m - 1, j = bessel(k, beta)
                let turn = [(1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0)][((k % 4) + 4) % 4]
                let (a, b) = (turn.0 * j, turn.1 * j)
                return (a * cos(beta) - b * sin(beta), a * sin(beta) + b * cos(beta))
            }
            for n in 1...5 {
                let (p, q) = component(n), (r, t) = component(-n)
                let expected = hypot(p - r, q + t) * velocity
                let measured = spectrum.peak(from: 300 * Double(n) - 10, to: 300 * Double(n) + 10).magnitude / unit
                XCTAssertEqual(measured, expected, accuracy: 0.01, "β \(beta), harmonic \(n)")
            }
        }
    }

    /// Without modulation the voice is a sine at the note (the carrier alone).
    func testIndexZeroIsAPureSine() {
        var note = FMNote()
        note.patch = steadyPatch(index: 0)
        note.frequency = 440
        note.velocity = 1
        let spectrum = Spectrum(render(note, seconds: 1), sampleRate: rate)
        let main = spectrum.peak(from: 430, to: 450)
        XCTAssertEqual(main.frequency, 440, accuracy: 1)
        let other = spectrum.largest(excluding: [440], guardHz: 20, from: 50, to: 10_000)
        XCTAssertLessThan(other.magnitude / main.magnitude, 1e-3)
    }

    /// Each routing sends the modulators where it says: a modulator at ratio 3 and index 0.5
    /// reaching a carrier puts its upper sideband at 4f with J1(β)/J0(β) of the carrier, where
    /// β = depth / modulator frequency = 0.5·f / 3f; dx17 mutes carrier 2; split sends m2 to
    /// carrier 2 only.
    func testRoutingsReachTheirCarriers() {
        func sideband(_ algorithm: FMPatch.Algorithm, modulator k: Int, carrier2Only: Bool = false) -> Double {
            var p = steadyPatch(index: 0, algorithm: algorithm)
            p.ratio = [3, 3, 3, 3]
            p.index[k] = 0.5
            p.modDecay = [100, 100, 100, 100]
            p.mod1Sustain = 1
            if carrier2Only { p.xLevel = 0; p.carrier2Mix = 1; p.yLevel = 1; p.beatDetune = 0 }
            var note = FMNote()
            note.patch = p
            note.frequency = 200
            note.velocity = 1
            let s = Spectrum(render(note, seconds: 1), sampleRate: rate)
            return s.peak(from: 790, to: 810).magnitude / max(s.peak(from: 190, to: 210).magnitude, 1e-12)
        }
        // Modulator 2's depth is all but constant (its sustain fraction is reached after 100 s).
        let beta = 0.5 / 3, expected = bessel(1, beta) / bessel(0, beta)
        XCTAssertEqual(sideband(.parallel, modulator: 1), expected, accuracy: 0.002, "parallel: m2 → c1")
        XCTAssertEqual(sideband(.parallel, modulator: 3), expected, accuracy: 0.002, "parallel: m4 → c1")
        XCTAssertEqual(sideband(.cross, modulator: 1), expected, accuracy: 0.002, "cross: m2 → c1")
        XCTAssertLessThan(sideband(.cross, modulator: 2), 1e-3, "cross: m3 → c2 only")
        XCTAssertLessThan(sideband(.split, modulator: 1), 1e-3, "split: m2 → c2 only")
        XCTAssertEqual(sideband(.split, modulator: 1, carrier2Only: true), expected, accuracy: 0.002, "split: m2 → c2")
        XCTAssertLessThan(sideband(.stack, modulator: 1), 1e-3, "stack: m2 only modulates m1 (silent here)")
        XCTAssertLessThan(sideband(.dx17, modulator: 0, carrier2Only: true), 1e-6, "dx17 mutes carrier 2")
    }

    /// Attack, decay to sustain, hold, release to 0.001, then the voice frees itself.
    func testEnvelopeReachesItsBreakpoints() {
        var p = steadyPatch(index: 0)
        p.attack = 0.1; p.decay = 0.2; p.sustain = 0.5; p.hold = 0.3; p.release = 0.5
        var note = FMNote()
        note.patch = p
        note.frequency = 1000
        note.velocity = 1
        var voice = FMVoice()
        voice.start(note, sampleRate: rate)
        var out: [Float] = []
        while voice.active && out.count < Int(3 * rate) { out.append(voice.next(sine).x) }
        func level(at t: Double) -> Float { Measure.peak(out[Int(t * rate)..<Int(t * rate) + 480]) }
        let pan = Float(cos(Double.pi / 4))
        XCTAssertEqual(level(at: 0.095), pan, accuracy: 0.03, "peak at the attack")
        XCTAssertEqual(level(at: 0.35), 0.5 * pan, accuracy: 0.02, "sustain while holding")
        XCTAssertEqual(out.count, Int(1.1 * rate), accuracy: 2, "ends after attack + decay + hold + release")
        XCTAssertLessThan(level(at: 1.085), 0.002 * pan)
    }
}
