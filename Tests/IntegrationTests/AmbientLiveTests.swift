import Foundation
import Kessho
import TestSupport
import XCTest

/// `entrain run --ambient-preset` on a private dummy jackd: the ambient engine sounds on
/// ambient_L/R, playing the chord of the present UTC phrase.
final class AmbientLiveTests: LiveClientTestCase {
    func testAmbientPresetPlaysChordTonesOnItsPorts() throws {
        // Pure sines with no detune, straight to the master: every chord note sits exactly on
        // the 432 Hz grid, whatever chord the wall clock picks.
        var state = KesshoState.defaults
        for (key, value) in [("reverbEnabled", KesshoValue.bool(false)), ("granularEnabled", .bool(false)),
                             ("oscBrightness", .number(0)), ("airNoise", .number(0)), ("waveSpread", .number(0)),
                             ("synthAttack", .number(0.2)), ("detune", .number(0)), ("filterCutoffMin", .number(8000)),
                             ("filterCutoffMax", .number(8000)), ("filterModSpeed", .number(0)), ("chordRate", .number(64))] {
            state[key] = value
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sines-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(KesshoPresetWriter.data(KesshoPreset(name: "sines", state: state))).write(to: file)

        let rec = try recorder(seconds: 3)
        let client = try startClient(["--ambient-preset", file.path, "--volume", "0"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:ambient_L", "entrain:ambient_R"])
        // A cycle the take lost breaks the sines' phase and moves the spectrum's peak (120.80 Hz
        // for 121.23 once, in a clean clone's run): a take that misses with xruns or cycles lost is taken again.
        try judgeThroughXruns("chord tones") {
            let (take, xruns) = try rec.recordCountingXruns()
            let left = Array(take[0][48_000...])
            XCTAssertGreaterThan(Measure.peak(left), 0.005, "the ambient pair sounds")
            let spectrum = Spectrum(left, sampleRate: 48_000)
            // The strongest component is a chord note: on the 432 Hz equal-tempered grid (±0.3 Hz).
            let strongest = spectrum.peak(from: 50, to: 2_000).frequency
            let midi = 69 + 12 * log2(strongest / 432)
            let nearest = 432 * pow(2, (midi.rounded() - 69) / 12)
            return (abs(strongest - nearest) > 0.3 ? "\(strongest) Hz is not a 432 Hz-grid note (\(nearest) Hz is)" : nil, xruns)
        }
    }
}
