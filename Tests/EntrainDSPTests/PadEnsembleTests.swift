import EntrainDSP
import Foundation
import XCTest

/// The six pad voices: chord-to-voice mapping, stagger and the filter walk, as Kessho's pad has them.
final class PadEnsembleTests: XCTestCase {
    func testChordNotesMapOntoEnabledVoices() {
        let all = PadEnsemble.assignment(chordSize: 3, mask: 0b11_1111)
        XCTAssertEqual((0..<6).map { all[$0] }, [0, 1, 2, 0, 1, 2], "a 3-note chord over six voices")
        let some = PadEnsemble.assignment(chordSize: 3, mask: 0b00_0101)
        XCTAssertEqual((0..<6).map { some[$0] }, [0, -1, 2, -1, -1, -1], "voices 0 and 2 play notes 0 and 2")
        let highOnly = PadEnsemble.assignment(chordSize: 3, mask: 0b11_1000)
        XCTAssertEqual((0..<6).map { highOnly[$0] }, [-1, -1, -1, 0, 0, 0], "no usable note: chord[0] for every enabled voice")
        let five = PadEnsemble.assignment(chordSize: 5, mask: 0b11_1111)
        XCTAssertEqual((0..<6).map { five[$0] }, [0, 1, 2, 3, 4, 0])
    }

    func testStaggerIsSortedDrawsTimesSpread() {
        var draws = InlineArray<6, Double>(repeating: 0)
        for (i, d) in [0.9, 0.1, 0.5, 0.3, 0.7, 0.0].enumerated() { draws[i] = d }
        let offsets = PadEnsemble.stagger(draws, waveSpread: 4)
        XCTAssertEqual((0..<6).map { offsets[$0] }, [0, 0.4, 1.2, 2, 2.8, 3.6].map { $0 }, "")
    }

    func testFilterWalkStaysInRangeAndFollowsItsSpeed() {
        var walk = FilterWalk(sampleRate: 1000, seed: 3)
        var low = 1.0, high = 0.0
        for _ in 0..<200_000 {
            _ = walk.tick(speed: 0.2)
            low = min(low, walk.position); high = max(high, walk.position)
        }
        XCTAssertGreaterThanOrEqual(low, 0)
        XCTAssertLessThanOrEqual(high, 1)
        XCTAssertGreaterThan(high - low, 0.5, "a fast walk roams")
        var still = FilterWalk(sampleRate: 1000, seed: 3)
        for _ in 0..<10_000 { _ = still.tick(speed: 0) }
        XCTAssertEqual(still.position, 0.5, "speed 0: no movement")
        XCTAssertEqual(still.cutoff(low: 100, high: 10_000), 1000, accuracy: 1e-6, "geometric middle")
        XCTAssertEqual(FilterWalk.q(1, cutoff: 100), 3, accuracy: 1e-12, "boost 4·(200−100)/200")
        XCTAssertEqual(FilterWalk.q(14, cutoff: 50), 15, "capped at 15")
    }

    /// `add` renders voice by voice, cut where the filter walk steps; its samples are `next()`'s
    /// frame by frame, bit for bit, at every block size (the walk steps every 4800 frames here).
    func testBlocksVoiceByVoiceEqualFrameByFrame() {
        let bank = WavetableBank.shared(sampleRate: 48_000)
        func playing() -> PadEnsemble {
            var pads = PadEnsemble(sampleRate: 48_000, bank: bank, seed: 5)
            pads.filterModSpeed = 3
            var chord = InlineArray<6, Double>(repeating: 0)
            chord[0] = 196; chord[1] = 246.94; chord[2] = 293.66; chord[3] = 392
            var offsets = InlineArray<6, Double>(repeating: 0)
            for i in 0..<6 { offsets[i] = Double(i) * 0.05 }
            pads.apply(chord: chord, chordSize: 4, mask: 0b11_1111, envelope: PadEnvelope(attack: 0.1, decay: 0.2, sustain: 0.7, release: 0.5),
                       offsets: offsets, atFrame: 0)
            return pads
        }
        let frames = 30_000
        var reference = playing()
        defer { reference.deallocate() }
        var expected = [Float](repeating: 0, count: 2 * frames)
        for i in 0..<frames { (expected[i], expected[frames + i]) = reference.next() }
        for block in [1, 64, 257, 4096] {
            var pads = playing()
            defer { pads.deallocate() }
            var left = [Float](repeating: 0, count: frames), right = left
            var done = 0
            while done < frames {
                let n = min(block, frames - done)
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in pads.add(into: l.baseAddress! + done, r.baseAddress! + done, frames: n) }
                }
                done += n
            }
            XCTAssertGreaterThan(left.map(abs).max() ?? 0, 0.01, "the chord sounds")
            let same = (0..<frames).allSatisfy { left[$0].bitPattern == expected[$0].bitPattern && right[$0].bitPattern == expected[frames + $0].bitPattern }
            XCTAssertTrue(same, "blocks of \(block): the same samples as frame by frame")
        }
    }

    /// A chord starts each voice on its note after its stagger offset.
    func testChordStartsVoicesOnTheirOffsets() {
        let bank = WavetableBank.shared(sampleRate: 48_000)
        var pads = PadEnsemble(sampleRate: 48_000, bank: bank, seed: 11)
        defer { pads.deallocate() }
        var chord = InlineArray<6, Double>(repeating: 0)
        chord[0] = 220; chord[1] = 277.18; chord[2] = 329.63
        var offsets = InlineArray<6, Double>(repeating: 0)
        for i in 0..<6 { offsets[i] = Double(i) * 0.2 }
        pads.apply(chord: chord, chordSize: 3, mask: 0b11_1111, envelope: PadEnvelope(attack: 1, decay: 1, sustain: 0.8, release: 2),
                   offsets: offsets, atFrame: 0)
        var peak: Float = 0
        for _ in 0..<Int(0.5 * 48_000) { let (l, _) = pads.next(); peak = max(peak, abs(l)) }
        XCTAssertGreaterThan(pads.voice(0).envelope.value, 0.1, "voice 0 started at 0 s")
        XCTAssertGreaterThan(pads.voice(2).envelope.value, 0, "voice 2 started at 0.4 s")
        XCTAssertEqual(pads.voice(3).envelope.value, 0, "voice 3 waits until 0.6 s")
        XCTAssertEqual(pads.voice(1).currentFrequency, 277.18, accuracy: 1e-9, "voice 1 plays note 1 since 0.2 s")
        XCTAssertEqual(pads.voice(4).currentFrequency, 0, "voice 4 (note 1 again) has not started at 0.5 s")
        XCTAssertGreaterThan(peak, 0)
        XCTAssertLessThan(peak, 6 * 0.15 * 1.12, "six voices at 0.15 each at most")
    }

    /// A Euclid lane's note on one pad voice: it rises toward S·velocity, and after
    /// A + D + max(0.3 s, A + D) falls toward 0 with τ = R/3; the other voices stay silent.
    func testEuclidNoteOnAPadVoice() {
        let bank = WavetableBank.shared(sampleRate: 48_000)
        var pads = PadEnsemble(sampleRate: 48_000, bank: bank, seed: 11)
        defer { pads.deallocate() }
        let env = PadEnvelope(attack: 0.2, decay: 0.2, sustain: 0.8, release: 1.5)
        pads.playNote(voice: 2, frequency: 330, velocity: 0.5, envelope: env)
        func run(_ seconds: Double) { for _ in 0..<Int(seconds * 48_000) { _ = pads.next() } }
        run(0.75)  // inside the note (its length is 0.4 + 0.4 = 0.8 s)
        XCTAssertEqual(pads.voice(2).envelope.value, 0.8 * 0.5, accuracy: 0.03, "sustain × velocity")
        XCTAssertEqual(pads.voice(2).currentFrequency, 330, accuracy: 1e-9)
        XCTAssertEqual(pads.voice(0).envelope.value, 0)
        run(0.05 + 0.5)  // 0.5 s = one τ (R/3) after the note's end
        XCTAssertEqual(pads.voice(2).envelope.value, 0.4 * exp(-1), accuracy: 0.02, "falling with τ = R/3")
    }
}
