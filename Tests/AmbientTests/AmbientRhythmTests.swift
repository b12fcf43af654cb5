import EntrainAmbient
import EntrainDSP
@testable import EntrainEngine
import Kessho
import XCTest

/// The lead's and drums' sequencers as the conductor queues them: which frames, from which
/// patterns, in the engine stream's order.
final class AmbientRhythmTests: XCTestCase {
    /// Phrase 110627550 exactly (2026-02-02T14:00:00Z).
    static let start = 110_627_550.0 * 16
    final class Clock: @unchecked Sendable { var frame: Int64 = 0 }

    func run(_ state: KesshoState, settings: [ConductorSetting] = [], seconds: Double, source: AmbientTempoSource = .phrase,
             external: ExternalBeat? = nil, seed: UInt64 = 9,
             changes: [(seconds: Double, setting: ConductorSetting)] = [],
             stateChanges: [(seconds: Double, key: String, value: KesshoValue)] = []) throws -> [AmbientEvent] {
        let clock = Clock()
        let host = try EngineHost(sampleRate: 48_000)
        let conductor = AmbientConductor(host: host, state: state, settings: settings, seed: seed, lookaheadSeconds: 0.1) {
            .init(frame: clock.frame, unixSeconds: Self.start + Double(clock.frame) / 48_000)
        }
        conductor.tempoSource = source
        conductor.readExternalBeats { _ in external }
        try conductor.play()
        var events: [AmbientEvent] = []
        func drain() { while let e = host.ambientEvents.pointee.popFirst() { events.append(e) } }
        drain()
        while clock.frame < Int64(seconds * 48_000) {
            clock.frame += 2_400
            for c in changes where Int64(c.seconds * 48_000) == clock.frame { try conductor.set(c.setting) }
            for c in stateChanges where Int64(c.seconds * 48_000) == clock.frame { try conductor.set(c.key, c.value) }
            try conductor.pump()
            drain()
        }
        return events
    }

    func leadState(tempo: Double) -> KesshoState {
        var s = KesshoState.defaults
        s["leadEnabled"] = .bool(true)
        s["leadLevel"] = .number(0.5)
        s["leadEuclideanMasterEnabled"] = .bool(true)
        s["leadEuclideanTempo"] = .number(tempo)
        s["lead1Density"] = .number(0.1)
        let lanes: [(String, Int, Int, Int)] = [("custom", 16, 4, 0), ("kotekan", 0, 0, 0), ("custom", 12, 5, 0), ("custom", 7, 4, 0)]
        for (i, lane) in lanes.enumerated() {
            let n = i + 1
            s["leadEuclid\(n)Enabled"] = .bool(true)
            s["leadEuclid\(n)Preset"] = .string(lane.0)
            if lane.1 > 0 {
                s["leadEuclid\(n)Steps"] = .number(Double(lane.1))
                s["leadEuclid\(n)Hits"] = .number(Double(lane.2))
            }
            // A preset lane adds its own rotation to the preset's (lane 2's default is 1).
            s["leadEuclid\(n)Rotation"] = .number(Double(lane.3))
            s["leadEuclid\(n)Probability"] = .number(1)
            s["leadEuclid\(n)Source"] = .string("lead")
        }
        return s
    }

    /// Four lanes at tempo 2 (an 8 s pattern, twice a phrase): every hit of every lane, and only
    /// those, is a note-on on frame c·8 s + i·(8 s / steps), in each of the first two phrases.
    func testFourLanesGiveNoteOnsOnTheirFrames() throws {
        let events = try run(leadState(tempo: 2), seconds: 31.8)
        let notes = events.filter { $0.kind == .leadNote }.map(\.frame)
        var expected: [Int64] = []
        let patterns = [KesshoEuclid.leadPattern(steps: 16, hits: 4, rotation: 0),
                        KesshoEuclid.leadPattern(steps: 8, hits: 3, rotation: 1),  // kotekan
                        KesshoEuclid.leadPattern(steps: 12, hits: 5, rotation: 0),
                        KesshoEuclid.leadPattern(steps: 7, hits: 4, rotation: 0)]
        for phrase in 0..<2 {
            for pattern in patterns {
                for c in 0..<2 {
                    for i in pattern.indices where pattern[i] {
                        let seconds = Double(phrase) * 16 + Double(c) * 8 + Double(i) * 8 / Double(pattern.count)
                        expected.append(Int64(seconds * 48_000))
                    }
                }
            }
        }
        XCTAssertEqual(notes.sorted(), expected.sorted())
        XCTAssertEqual(notes, notes.sorted(), "queued in frame order")
        // Every note sounds a scale note of the chord's key within its lane's range.
        for e in events where e.kind == .leadNote {
            let midi = 69 + 12 * log2(e.note.frequency / 432)
            XCTAssertEqual(midi, midi.rounded(), accuracy: 1e-6)
            XCTAssertTrue((52...96).contains(Int(midi.rounded())), "within the lanes' ranges: \(midi)")
            XCTAssertGreaterThan(e.note.velocity, 0)
        }
    }

    /// A lane's probability drops notes (the draw is made for every note), and lead 2's lanes
    /// sound only with lead 2 on; a synth lane plays the pad voice.
    func testProbabilitySourcesAndPadLanes() throws {
        var s = leadState(tempo: 1)
        for n in 2...4 { s["leadEuclid\(n)Enabled"] = .bool(false) }
        s["leadEuclid1Probability"] = .number(0.5)
        let some = try run(s, seconds: 64).filter { $0.kind == .leadNote }.count
        XCTAssertTrue((4..<16).contains(some), "about half of 16 hits: \(some)")
        s["leadEuclid1Probability"] = .number(1)
        s["leadEuclid1Source"] = .string("lead2")
        XCTAssertEqual(try run(s, seconds: 16).filter { $0.kind == .leadNote }.count, 0, "lead 2 off")
        s["lead2Enabled"] = .bool(true)
        XCTAssertEqual(try run(s, seconds: 15.8).filter { $0.kind == .leadNote }.count, 4)
        s["leadEuclid1Source"] = .string("synth3")
        s["leadEnabled"] = .bool(false)
        let pad = try run(s, seconds: 15.8).filter { $0.kind == .padNote }
        XCTAssertEqual(pad.map(\.padVoice), [2, 2, 2, 2])
        XCTAssertEqual(pad.map(\.frame), [0, 4, 8, 12].map { Int64($0 * 48_000) })
    }

    /// Random mode: max(1, round(3·density + 2u)) notes a phrase, each at u·16 s.
    func testRandomMelodyCount() throws {
        var s = KesshoState.defaults
        s["leadEnabled"] = .bool(true)
        s["leadLevel"] = .number(0.5)
        s["lead1Density"] = .number(2)
        let notes = try run(s, seconds: 16 * 4 - 0.1).filter { $0.kind == .leadNote }
        XCTAssertTrue((4 * 6...4 * 8).contains(notes.count), "6–8 a phrase: \(notes.count)")
    }

    func drumState(bpm: Double = 120) -> KesshoState {
        var s = KesshoState.defaults
        s["drumEnabled"] = .bool(true)
        s["drumLevel"] = .number(0.6)
        s["drumEuclidMasterEnabled"] = .bool(true)
        s["drumEuclidBaseBPM"] = .number(bpm)
        s["drumEuclid1Enabled"] = .bool(true)   // custom 8 steps, 5 hits, kick, at 1/8
        s["drumEuclid2Enabled"] = .bool(true)   // custom 16 / 3, beepHi, at 1/16
        s["drumEuclid2Preset"] = .string("tresillo")
        return s
    }

    /// Drum hits land on their lanes' steps: lane 1 (1/8 notes) plays the drum Bjorklund (8, 5),
    /// lane 2 (1/16) tresillo (8, 3), counted from the epoch's beat 0 (at 120 BPM, every
    /// phrase starts on step 0); voices as targeted.
    func testDrumHitsOnTheirSteps() throws {
        let events = try run(drumState(), seconds: 4).filter { $0.kind == .drumHit }
        let lane1 = KesshoEuclid.drumPattern(steps: 8, hits: 5, rotation: 0)
        let lane2 = KesshoEuclid.drumPattern(steps: 8, hits: 3, rotation: 0)
        var kicks: [Int64] = [], beeps: [Int64] = []
        for k in 0...16 where lane1[k % 8] { kicks.append(Int64(k) * 12_000) }   // 0.25 s steps
        for k in 0...32 where lane2[k % 8] { beeps.append(Int64(k) * 6_000) }    // 0.125 s steps
        XCTAssertEqual(events.filter { $0.hit.voice == .kick }.map(\.frame), kicks.filter { $0 <= 4 * 48_000 })
        XCTAssertEqual(events.filter { $0.hit.voice == .beepHi }.map(\.frame), beeps.filter { $0 <= 4 * 48_000 })
        XCTAssertEqual(events.first { $0.hit.voice == .kick }?.hit.frequency, 55, "the state's voice keys")
    }

    /// A lane's pattern changed while playing is the one its hits follow from then on (the
    /// conductor keeps the lanes between state changes): lane 1 from (8, 5) to (8, 2) at 2 s.
    func testALaneChangedWhilePlayingIsTheOneItsHitsFollow() throws {
        let events = try run(drumState(), seconds: 4, stateChanges: [(2, "drumEuclid1Hits", .number(2))])
        let kicks = events.filter { $0.kind == .drumHit && $0.hit.voice == .kick }.map(\.frame)
        func steps(_ pattern: [Bool], _ range: ClosedRange<Int>) -> [Int64] {
            range.filter { pattern[$0 % 8] }.map { Int64($0) * 12_000 }  // 0.25 s steps
        }
        let before = steps(KesshoEuclid.drumPattern(steps: 8, hits: 5, rotation: 0), 0...7)
        let after = steps(KesshoEuclid.drumPattern(steps: 8, hits: 2, rotation: 0), 9...16)
        XCTAssertEqual(kicks.filter { $0 < 2 * 48_000 }, before)
        // Hits already queued within the 0.1 s look-ahead keep the old pattern; later ones the new.
        XCTAssertEqual(kicks.filter { $0 > 2 * 48_000 + 4_800 }, after)
    }

    /// The same preset, seed and start give the same events, notes and hits included.
    func testSameSeedSameEvents() throws {
        var s = leadState(tempo: 1.5)
        for (k, v) in drumState().entries where k.hasPrefix("drum") { s[k] = v }
        s["drumKickVariation"] = .number(0.5)
        s["drumEuclid1TargetSub"] = .bool(true)  // two voices: the lane's own seeded stream picks

        func digest(_ e: [AmbientEvent]) -> [String] {
            e.map { "\($0.kind) \($0.frame) \($0.note.frequency) \($0.note.velocity) \($0.hit.voice) \($0.hit.level) \($0.hit.decay)" }
        }
        let a = try run(s, seconds: 20), b = try run(s, seconds: 20), c = try run(s, seconds: 20, seed: 10)
        XCTAssertEqual(digest(a), digest(b))
        XCTAssertGreaterThan(a.filter { $0.kind == .drumHit }.count, 20)
        XCTAssertNotEqual(digest(a), digest(c), "another seed varies what the web leaves to chance")
    }

    /// An outside beat (100 BPM, beats on frames 1000 + k·28 800): drum steps follow it, and
    /// lead notes move to its quarter beats.
    func testOutsideBeatDrivesDrumsAndLead() throws {
        let beat = ExternalBeat(anchorFrame: 1000, index: 0, periodFrames: 28_800)
        var s = drumState(bpm: 60)
        s["drumEuclid2Enabled"] = .bool(false)
        for (k, v) in leadState(tempo: 1).entries where k.hasPrefix("lead") { s[k] = v }
        let events = try run(s, seconds: 6, source: .beat, external: beat)
        let lane1 = KesshoEuclid.drumPattern(steps: 8, hits: 5, rotation: 0)
        var kicks: [Int64] = []
        for k in 0..<40 where lane1[k % 8] && 1000 + Int64(k) * 14_400 <= 6 * 48_000 { kicks.append(1000 + Int64(k) * 14_400) }
        XCTAssertEqual(events.filter { $0.kind == .drumHit }.map(\.frame), kicks)
        let notes = events.filter { $0.kind == .leadNote }
        XCTAssertFalse(notes.isEmpty)
        for n in notes { XCTAssertEqual((n.frame - 1000) % 7_200, 0, "on a quarter beat: \(n.frame)") }
        // Without a beat yet, the phrase grid keeps time.
        let none = try run(s, seconds: 2, source: .beat, external: nil).filter { $0.kind == .drumHit }
        XCTAssertEqual(none.first?.frame, 0)
    }

    /// Moving a drum voice's morph writes the two presets' blend into the state, as the web's UI
    /// does (and so the hits use it); a voice whose presets we do not know keeps its keys.
    func testDrumMorphIsWrittenIntoTheState() throws {
        let host = try EngineHost(sampleRate: 48_000)
        var s = KesshoState.defaults
        s["drumKickPresetA"] = .string("Soft Thud")
        s["drumKickPresetB"] = .string("Far Boom")
        let conductor = AmbientConductor(host: host, state: s) { .init(frame: 0, unixSeconds: Self.start) }
        try conductor.set("drumKickMorph", .number(0.5))
        XCTAssertEqual(conductor.state.number("drumKickDecay") ?? 0, (110.0 * 1300).squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(conductor.state.number("drumKickBody") ?? 0, 0.75, accuracy: 1e-12)
        try conductor.set("drumSubPresetB", .string("Not Ours"))
        XCTAssertEqual(conductor.state.number("drumSubFreq"), 50, "unknown preset: the state's value stays")
    }

    /// `synthChordSequencerEnabled` off: no chord is applied; the pad is released, unless a Euclid
    /// lane plays pad voices (then only its notes reach the pad).
    func testChordSequencerOff() throws {
        var s = KesshoState.defaults
        s["synthChordSequencerEnabled"] = .bool(false)
        let plain = try run(s, seconds: 40)
        XCTAssertTrue(plain.filter { $0.kind == .chord }.isEmpty)
        XCTAssertFalse(plain.filter { $0.kind == .padRelease }.isEmpty)
        var lanes = leadState(tempo: 1)
        lanes["synthChordSequencerEnabled"] = .bool(false)
        lanes["leadEnabled"] = .bool(false)
        lanes["leadEuclid1Source"] = .string("synth1")
        let played = try run(lanes, seconds: 40)
        XCTAssertTrue(played.filter { $0.kind == .chord || $0.kind == .padRelease }.isEmpty)
        XCTAssertFalse(played.filter { $0.kind == .padNote }.isEmpty)
        XCTAssertTrue(played.filter { $0.kind == .leadNote }.isEmpty, "the lead is off")
    }
}
