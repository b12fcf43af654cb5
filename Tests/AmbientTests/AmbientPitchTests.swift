import EntrainAmbient
import EntrainEngine
import Kessho
import TestSupport
import XCTest

/// From preset to sound: the chord the web would play comes out of ambient_L at its frequencies
/// (432 Hz tuning, the chord's own detune, the octave setting).
final class AmbientPitchTests: XCTestCase {
    /// Pure sines straight to the master (the shaper adds only weak harmonics).
    func plainState(octave: Double) -> KesshoState {
        var s = KesshoState.defaults
        for (key, value) in [("reverbEnabled", KesshoValue.bool(false)), ("granularEnabled", .bool(false)),
                             ("oscBrightness", .number(0)), ("airNoise", .number(0)), ("waveSpread", .number(0)),
                             ("synthAttack", .number(0.3)), ("filterCutoffMin", .number(8000)),
                             ("filterCutoffMax", .number(8000)), ("filterModSpeed", .number(0)),
                             ("synthOctave", .number(octave)), ("synthLevel", .number(1))] {
            s[key] = value
        }
        return s
    }

    func leftChannel(_ state: KesshoState, seconds: Int) throws -> [Float] {
        let host = try EngineHost(sampleRate: 48_000)
        let conductor = AmbientConductor(host: host, state: state, lookaheadSeconds: 256.0 / 48_000) {
            .init(frame: host.frame, unixSeconds: 110_627_550.0 * 16 + Double(host.frame) / 48_000)
        }
        try conductor.play()
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var left: [Float] = []
        for _ in 0..<(seconds * 48_000 / 256) {
            try conductor.pump()
            renderer.renderBlock(256) { io in left += UnsafeBufferPointer(start: io[.ambientL], count: 256) }
        }
        return left
    }

    func testTheWebsFirstChordSoundsAtItsFrequencies() throws {
        // 2026-02-02T14:00:00Z, default harmony: Aeolian [40, 47, 72] with its detune draws.
        let expected = [81.110, 121.246, 512.835]
        for octave in [0.0, 1.0] {
            let left = try leftChannel(plainState(octave: octave), seconds: 6)
            let spectrum = Spectrum(Array(left[(2 * 48_000)...]), sampleRate: 48_000)
            for f in expected.map({ $0 * pow(2, octave) }) {
                XCTAssertEqual(spectrum.peak(from: f * 0.97, to: f * 1.03).frequency, f, accuracy: 0.1, "octave \(octave)")
            }
        }
    }
}
