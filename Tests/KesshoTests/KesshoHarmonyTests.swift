import XCTest
@testable import Kessho

/// Scales, chords and the circle-of-fifths drift against values the web app computes.
final class KesshoHarmonyTests: XCTestCase {
    func testTuning() {
        XCTAssertEqual(KesshoScales.frequency(midi: 69), 432)
        XCTAssertEqual(KesshoScales.frequency(midi: 40), 80.9086, accuracy: 5e-5)
    }

    func testScaleTable() {
        XCTAssertEqual(KesshoScales.all.count, 11)
        XCTAssertEqual(KesshoScales.named("Octatonic Half-Whole")?.intervals, [0, 1, 3, 4, 6, 7, 9, 10])
        XCTAssertEqual(KesshoScales.candidates(tension: 0.25).map(\.name).count, 6)
        XCTAssertEqual(KesshoScales.candidates(tension: 0.55).count, 9)
        XCTAssertEqual(KesshoScales.candidates(tension: 0.8).map(\.name),
                       ["Aeolian", "Harmonic Minor", "Melodic Minor", "Octatonic Half-Whole", "Phrygian Dominant"])
        XCTAssertEqual(KesshoScales.candidates(tension: 0.81).count, 2)
    }

    /// The web's scale probabilities per tension (to one decimal place).
    func testScaleProbabilities() {
        func probs(_ t: Double) -> [String: Double] {
            let c = KesshoScales.candidates(tension: t)
            let w = c.map { KesshoScales.weight($0, tension: t) }
            let total = w.reduce(0, +)
            return Dictionary(uniqueKeysWithValues: zip(c.map(\.name), w.map { ($0 / total * 1000).rounded() / 10 }))
        }
        let t0 = probs(0)
        XCTAssertEqual(t0["Major Pentatonic"], 55.7); XCTAssertEqual(t0["Major (Ionian)"], 19.7)
        XCTAssertEqual(t0["Lydian"], 10.7); XCTAssertEqual(t0["Mixolydian"], 5.6)
        XCTAssertEqual(t0["Minor Pentatonic"], 4.4); XCTAssertEqual(t0["Dorian"], 3.8)
        let t3 = probs(0.3)
        XCTAssertEqual(t3["Dorian"], 24.0); XCTAssertEqual(t3["Aeolian"], 24.0)
        XCTAssertEqual(t3["Minor Pentatonic"], 16.2); XCTAssertEqual(t3["Mixolydian"], 10.8)
        XCTAssertEqual(t3["Lydian"], 6.1); XCTAssertEqual(t3["Harmonic Minor"], 6.1)
        XCTAssertEqual(t3["Major (Ionian)"], 4.6); XCTAssertEqual(t3["Melodic Minor"], 4.6)
        XCTAssertEqual(t3["Major Pentatonic"], 3.7)
        let t5 = probs(0.5)
        XCTAssertEqual(t5["Harmonic Minor"], 57.1); XCTAssertEqual(t5["Melodic Minor"], 20.2)
        XCTAssertEqual(t5["Aeolian"], 7.1)
        XCTAssertTrue(t5.filter { !["Harmonic Minor", "Melodic Minor", "Aeolian"].contains($0.key) }.allSatisfy { $0.value < 4 })
        let t7 = probs(0.7)
        XCTAssertEqual(t7["Melodic Minor"], 26.4); XCTAssertEqual(t7["Octatonic Half-Whole"], 26.4)
        XCTAssertEqual(t7["Harmonic Minor"], 18.9); XCTAssertEqual(t7["Phrygian Dominant"], 18.9)
        XCTAssertEqual(t7["Aeolian"], 9.3)
        let t1 = probs(1)
        XCTAssertEqual(t1["Phrygian Dominant"], 60.6); XCTAssertEqual(t1["Octatonic Half-Whole"], 39.4)
    }

    func testScaleNotes() {
        XCTAssertEqual(KesshoScales.notes(KesshoScales.named("Major Pentatonic")!, root: 4, in: 40, 52),
                       [40, 42, 44, 47, 49, 52])
    }

    /// The web's initial chord: default state, bucket 2026-02-02T14.
    func testInitialChordDefaultState() {
        let h = KesshoHarmonyState(bucket: "2026-02-02T14", state: .defaults)
        XCTAssertEqual(h.scale.name, "Aeolian")
        XCTAssertEqual(h.chord.notes, [40, 47, 72])
        let expected = [81.110, 121.246, 512.835]
        for (f, e) in zip(h.chord.frequencies, expected) { XCTAssertEqual(f, e, accuracy: 0.0005) }
        XCTAssertEqual(h.countdown, 2)
    }

    func testInitialChordDayBucket() {
        let h = KesshoHarmonyState(bucket: "2026-02-02", state: .defaults)
        XCTAssertEqual(h.scale.name, "Aeolian")
        XCTAssertEqual(h.chord.notes, [40, 47, 62])
    }

    func testInitialChordHighTension() {
        var s = KesshoState.defaults
        s["tension"] = .number(0.8); s["voicingSpread"] = .number(0.9); s["detune"] = .number(0); s["rootNote"] = .number(0)
        let h = KesshoHarmonyState(bucket: "2026-02-02T14", state: s)
        XCTAssertEqual(h.scale.name, "Octatonic Half-Whole")
        XCTAssertEqual(h.chord.notes, [36, 43, 45, 55])
        let expected = [64.217, 96.217, 108.000, 192.434]
        for (f, e) in zip(h.chord.frequencies, expected) { XCTAssertEqual(f, e, accuracy: 0.0005) }
    }

    /// The web's per-phrase chords: each seed hashes JSON.stringify(DEFAULT_STATE), so this also checks the state JSON.
    func testPhraseSequenceDefaultState() {
        var h = KesshoHarmonyState(bucket: "2026-02-02T14", state: .defaults)
        var results: [Int: (String, [Int])] = [:]
        for phrase in 110627550...110627555 {
            if h.advance(phraseIndex: phrase, bucket: "2026-02-02T14", state: .defaults, root: 4) {
                results[phrase] = (h.scale.name, h.chord.notes)
            }
        }
        XCTAssertEqual(results.keys.sorted(), [110627551, 110627553, 110627555])
        XCTAssertEqual(results[110627551]?.0, "Mixolydian"); XCTAssertEqual(results[110627551]?.1, [40, 47, 74, 76])
        XCTAssertEqual(results[110627553]?.0, "Major Pentatonic"); XCTAssertEqual(results[110627553]?.1, [40, 42, 47])
        XCTAssertEqual(results[110627555]?.0, "Harmonic Minor"); XCTAssertEqual(results[110627555]?.1, [52, 57, 59])
    }

    /// The countdown schedule alone (independent of the hash): chordRate 32 → a chord every 2nd phrase.
    func testCountdownSchedule() {
        var h = KesshoHarmonyState(bucket: "2026-02-02T14", state: .defaults)
        let changes = (110627550...110627555).filter {
            h.advance(phraseIndex: $0, bucket: "2026-02-02T14", state: .defaults, root: 4)
        }
        XCTAssertEqual(changes, [110627551, 110627553, 110627555])
        var forced = KesshoHarmonyState(bucket: "b", state: .defaults)
        XCTAssertTrue(forced.advance(phraseIndex: 1, bucket: "b", state: .defaults, root: 11, forceChange: true))
        // root B: bass is 47 or 59 with its fifth (octave-displaced tones may sit below it)
        XCTAssertTrue(forced.chord.notes.contains(47) && forced.chord.notes.contains(54)
                      || forced.chord.notes.contains(59) && forced.chord.notes.contains(66), "\(forced.chord.notes)")
    }

    func testManualScale() {
        var s = KesshoState.defaults
        s["scaleMode"] = .string("manual"); s["manualScale"] = .string("Lydian")
        var h = KesshoHarmonyState(bucket: "2026-02-02T14", state: s)
        XCTAssertEqual(h.scale.name, "Lydian")
        h.advance(phraseIndex: 5, bucket: "x", state: s, root: 4, forceChange: true)
        XCTAssertEqual(h.scale.name, "Lydian")
        s["manualScale"] = .string("E Lydian")  // unknown name: previous scale kept
        h.advance(phraseIndex: 6, bucket: "x", state: s, root: 4, forceChange: true)
        XCTAssertEqual(h.scale.name, "Lydian")
    }

    func testChordShapeInvariants() {
        for seed in 0..<200 {
            var rng = KesshoRandom(seed: "inv\(seed)")
            let t = Double(seed % 10) / 10
            let scale = KesshoScales.all[seed % 11]
            let c = KesshoHarmony.chord(rng: &rng, scale: scale, tension: t, voicingSpread: Double(seed % 7) / 6,
                                        detune: 8, root: seed % 12)
            XCTAssertTrue((3...5).contains(c.notes.count), "\(c.notes)")
            XCTAssertEqual(c.notes, c.notes.sorted())
            XCTAssertEqual(Set(c.notes).count, c.notes.count)
            // bass (home octave or one up) and its fifth are always there; shifted tones may sit anywhere in 36…84
            let base = 36 + seed % 12
            XCTAssertTrue(c.notes.contains(base) && c.notes.contains(base + 7)
                          || c.notes.contains(base + 12) && c.notes.contains(base + 19), "\(c.notes)")
        }
    }

    // MARK: circle of fifths

    func testDriftedRoot() {
        XCTAssertEqual(KesshoCircleOfFifths.drifted(home: 4, step: 1), 11)   // E → B
        XCTAssertEqual(KesshoCircleOfFifths.drifted(home: 4, step: -1), 9)   // E → A
        XCTAssertEqual(KesshoCircleOfFifths.drifted(home: 0, step: 6), 6)
        XCTAssertEqual(KesshoCircleOfFifths.drifted(home: 0, step: -6), 6)
        XCTAssertEqual(KesshoCircleOfFifths.drifted(home: 5, step: 1), 0)    // F → C wraps
    }

    /// Fixed direction walks out to +range then oscillates between range and range−1.
    func testDriftClockwiseEdge() {
        var d = KesshoCoFDrift()
        var steps: [Int] = []
        var moves: [Bool] = []
        for _ in 0..<16 {
            moves.append(d.advance(enabled: true, rate: 2, range: 3, direction: .cw) { XCTFail("no draw"); return 0 })
            steps.append(d.step)
        }
        XCTAssertEqual(steps, [0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3, 2, 2, 3, 3, 2])
        XCTAssertEqual(moves.filter { $0 }.count, 8)
    }

    func testDriftCounterClockwiseRate1() {
        var d = KesshoCoFDrift()
        let steps = (0..<6).map { _ -> Int in _ = d.advance(enabled: true, rate: 1, range: 2, direction: .ccw) { 0 }; return d.step }
        XCTAssertEqual(steps, [-1, -2, -1, -2, -1, -2])
        let roots = steps.map { KesshoCircleOfFifths.drifted(home: 4, step: $0) }
        XCTAssertEqual(roots, [9, 2, 9, 2, 9, 2])  // E → A → D → A …
    }

    /// Random direction takes one engine draw per move: <0.5 → cw.
    func testDriftRandomUsesCoin() {
        var d = KesshoCoFDrift()
        var draws = [0.7, 0.2, 0.9, 0.9, 0.9][...]
        let steps = (0..<5).map { _ -> Int in _ = d.advance(enabled: true, rate: 1, range: 1, direction: .random) { draws.removeFirst() }; return d.step }
        // −1, 0, −1, then −2 is out of range → bounce back to 0, then −1
        XCTAssertEqual(steps, [-1, 0, -1, 0, -1])
        XCTAssertTrue(draws.isEmpty)
    }

    func testDriftDisableResets() {
        var d = KesshoCoFDrift()
        _ = d.advance(enabled: true, rate: 1, range: 3, direction: .cw) { 0 }
        XCTAssertEqual(d.step, 1)
        XCTAssertFalse(d.advance(enabled: false, rate: 1, range: 3, direction: .cw) { 0 })
        XCTAssertEqual(d.step, 0); XCTAssertEqual(d.counter, 0)
    }
}

final class KesshoHarmonyDriverTests: XCTestCase {
    /// Default state (drift off): the driver reproduces the web's per-phrase chords.
    func testDriverMatchesPhraseVector() {
        var d = KesshoHarmonyDriver(bucket: "2026-02-02T14", state: .defaults)
        var made: [Int: [Int]] = [:]
        for n in 110627550...110627555 where d.phraseBoundary(phraseIndex: n, state: .defaults, coin: { XCTFail(); return 0 }) {
            made[n] = d.harmony.chord.notes
        }
        XCTAssertEqual(made, [110627551: [40, 47, 74, 76], 110627553: [40, 42, 47], 110627555: [52, 57, 59]])
    }

    /// Drift cw every 3 phrases: the key moves E → B → F# → C# and each move forces a chord in the new key.
    func testDriftForcesChordInNewKey() {
        var s = KesshoState.defaults
        s["cofDriftEnabled"] = .bool(true); s["cofDriftRate"] = .number(3); s["chordRate"] = .number(64)
        var d = KesshoHarmonyDriver(bucket: "2026-02-02T14", state: s)
        var roots: [Int] = []
        for n in 1...9 {
            let changed = d.phraseBoundary(phraseIndex: n, state: s) { 0 }
            if n % 3 == 0 {
                XCTAssertTrue(changed, "boundary \(n)")
                roots.append(d.effectiveRoot(s))
                let pcs = Set(d.harmony.chord.notes.map { $0 % 12 })
                XCTAssertTrue(pcs.contains(d.effectiveRoot(s)) && pcs.contains((d.effectiveRoot(s) + 7) % 12))
            } else {
                XCTAssertFalse(changed, "boundary \(n)")  // chordRate 64 → 4 phrases per chord
            }
        }
        XCTAssertEqual(roots, [11, 6, 1])
    }
}
