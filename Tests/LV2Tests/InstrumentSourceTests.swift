import EntrainEngine
import EntrainLV2
import TestSupport
import XCTest

/// An instrument plugin (mda EPiano, from mda-lv2) added to the ambient bus is a sound source: it
/// plays the ambient engine's current chord, each note on the chord's frame, and lets the old
/// notes go when the chord changes. The ambient engine is not playing here, so all that sounds
/// is the instrument.
final class InstrumentSourceTests: XCTestCase {
    static let synth = "http://drobilla.net/plugins/mda/EPiano"  // (mda's DX10 and JX10 stay tuned for 44.1 kHz)

    /// The ambient pair after `chords` (frequencies, each from its frame), `seconds` long.
    private func play(_ chords: [(frame: Int64, hertz: [Double])], seconds: Double) throws -> [Float] {
        let host = try TestEngine.host([:])
        let chains = InsertChains(host: host)
        XCTAssertEqual(try chains.add(Self.synth, to: .ambient), 0)
        for (frame, hertz) in chords {
            var event = AmbientEvent(frame: frame, kind: .chord)
            event.chordSize = hertz.count
            for (i, f) in hertz.enumerated() { event.chord[i] = f }
            try host.pushAmbient(event)
        }
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var left: [Float] = [], right: [Float] = []
        for _ in 0..<Int(seconds * host.sampleRate / 256) {
            renderer.renderBlock(256) { io in
                left += UnsafeBufferPointer(start: io[.ambientL], count: 256)
                right += UnsafeBufferPointer(start: io[.ambientR], count: 256)
            }
            chains.collect()
        }
        XCTAssertGreaterThan(Measure.rms(right[...]), 0.1 * Measure.rms(left[...]), "both sides play")
        return left
    }

    /// The largest magnitude in `band`.
    private func strongest(_ spectrum: Spectrum, in band: ClosedRange<Double>) -> Double {
        spectrum.peak(from: band.lowerBound, to: band.upperBound).magnitude
    }

    func testTheInstrumentPlaysTheChordsPitches() throws {
        // A major (A3, C♯4, E4), slightly detuned as Kessho's chords are: the notes are the nearest.
        let chord = [220.4, 277.0, 329.9]
        let x = try play([(4900, chord)], seconds: 1)
        XCTAssertEqual(Measure.peak(x[0..<4900]), 0, "silent before the chord's frame")
        XCTAssertGreaterThan(Measure.peak(x[4900..<5200]), 0.001, "struck on it")
        let spectrum = Spectrum(Array(x[7300..<(7300 + 16384)]), sampleRate: 48000)
        let notes = [220.0, 277.18, 329.63]
        let floor = spectrum.largest(excluding: notes.flatMap { f in (1...8).map { Double($0) * f } }, guardHz: 12, from: 100, to: 2000).magnitude
        for f in notes {
            let peak = spectrum.peak(from: f * 0.985, to: f * 1.015)
            XCTAssertEqual(peak.frequency, f, accuracy: f * 0.006, "\(f) Hz is played")
            XCTAssertGreaterThan(20 * log10(peak.magnitude / floor), 20, "\(f) Hz stands out")
        }
        // Nothing where the chord has no note: B3 and D4 are quiet.
        for f in [246.94, 293.66] {
            XCTAssertLessThan(20 * log10(strongest(spectrum, in: f * 0.99...f * 1.01) / spectrum.peak(from: 215, to: 225).magnitude), -25, "\(f) Hz")
        }
    }

    func testAChordChangeLetsTheOldNotesGo() throws {
        let x = try play([(4800, [220.0, 277.18, 329.63]), (24000, [196.0, 246.94, 293.66])], seconds: 1.5)
        let spectrum = Spectrum(Array(x[28800..<(28800 + 16384)]), sampleRate: 48000)
        let g = spectrum.peak(from: 190, to: 202).magnitude
        for (old, new) in [(220.0, 196.0), (277.18, 246.94), (329.63, 293.66)] {
            XCTAssertEqual(spectrum.peak(from: new * 0.985, to: new * 1.015).frequency, new, accuracy: new * 0.006, "\(new) Hz plays")
            XCTAssertLessThan(20 * log10(spectrum.peak(from: old * 0.99, to: old * 1.01).magnitude / g), -25, "\(old) Hz was released")
        }
    }

    func testAnInstrumentIsRefusedOnTheHapticBus() throws {
        let chains = InsertChains(host: try TestEngine.host([:]))
        XCTAssertThrowsError(try chains.add(Self.synth, to: .haptic)) { error in
            XCTAssertTrue("\(error)".contains("instruments play on the entrainment and ambient buses"), "\(error)")
        }
    }
}
