import EntrainAmbient
import EntrainDSP
@testable import EntrainEngine
import Kessho
import XCTest

/// The conductor against values the web app computes (its seeded streams and per-phrase chords): what it queues for the ambient
/// plugin, on which frame, drawing the engine stream in the web's order.
final class AmbientConductorTests: XCTestCase {
    /// 2026-02-02T14:00:00Z, phrase 110627550 exactly: where the web's chord sequence used here starts.
    static let start = 110_627_550.0 * 16

    final class Clock: @unchecked Sendable { var frame: Int64 = 0 }

    func conductor(_ state: KesshoState = .defaults, clock: Clock = Clock(), lookahead: Double = 1) throws
        -> (EngineHost, AmbientConductor) {
        let host = try EngineHost(sampleRate: 48_000)
        let conductor = AmbientConductor(host: host, state: state, seed: 9, lookaheadSeconds: lookahead) {
            .init(frame: clock.frame, unixSeconds: Self.start + Double(clock.frame) / 48_000)
        }
        return (host, conductor)
    }

    func drain(_ host: EngineHost) -> [AmbientEvent] {
        var events: [AmbientEvent] = []
        while let e = host.ambientEvents.pointee.popFirst() { events.append(e) }
        return events
    }

    func testPhraseGridGivesTheWebsChordsOnTheirFrames() throws {
        let clock = Clock()
        let (host, conductor) = try conductor(clock: clock)
        try conductor.play()
        var events = drain(host)
        // Walk 90 s of engine time, pumping as a live loop would.
        while clock.frame < 90 * 48_000 {
            clock.frame += 4_800
            try conductor.pump()
            events += drain(host)
        }
        XCTAssertEqual(conductor.bucket, "2026-02-02T14")
        XCTAssertEqual(events.first?.kind, .play)
        XCTAssertEqual(zip(events, events.dropFirst()).allSatisfy { $0.frame <= $1.frame }, true, "frames in order")

        let chords = events.filter { $0.kind == .chord }
        XCTAssertEqual(chords.map(\.frame), [0, 768_000, 2_304_000, 3_840_000],
                       "initial chord, then phrases 551, 553, 555 (chordRate 32: every second boundary)")
        func midi(_ e: AmbientEvent) -> [Int] {
            (0..<e.chordSize).map { Int((69 + 12 * log2(e.chord[$0] / 432)).rounded()) }
        }
        XCTAssertEqual(chords.map(midi), [[40, 47, 72], [40, 47, 74, 76], [40, 42, 47], [52, 57, 59]])
        XCTAssertEqual(chords[0].chord[0], 81.110, accuracy: 0.001)
        XCTAssertEqual(chords[0].chord[1], 121.246, accuracy: 0.001)
        XCTAssertEqual(chords[0].chord[2], 512.835, accuracy: 0.001)

        // The first chord's stagger is the engine stream's first six draws × waveSpread 4, sorted.
        let offsets = (0..<6).map { chords[0].offsets[$0] }
        XCTAssertEqual(offsets, offsets.sorted())
        for draw in [0.7206928034, 0.2963716493, 0.1089675303, 0.8512276309, 0.5471963070] {
            XCTAssertTrue(offsets.contains { abs($0 - 4 * draw) < 1e-8 }, "\(4 * draw) in \(offsets)")
        }

        // Granulator draws: one sequence at play and at every boundary, each 10 000 draws after
        // the previous (plus 6 stagger draws where a chord came first).
        let sequences = events.filter { $0.kind == .grainSequence }
        XCTAssertEqual(sequences.map(\.frame), [0, 0] + (1...5).map { Int64($0) * 768_000 })
        let step = Double(0x6D2B79F5)
        XCTAssertEqual(sequences[0].streamCounter, Double(KesshoXmur3.hash("2026-02-02T14|E_ROOT")) + 6 * step)
        let draws = zip(sequences, sequences.dropFirst()).map { Int((($1.streamCounter - $0.streamCounter) / step).rounded()) }
        XCTAssertEqual(draws, [10_000, 10_006, 10_000, 10_006, 10_000, 10_006])
    }

    /// The plugin replays the sequence from the counter: the granulator gets the same values the
    /// web's worklet would (the stream's draws as Float32).
    func testGrainSequenceReplaysTheStream() {
        var conductorSide = KesshoRandom(seed: "2026-02-02T14|E_ROOT")
        for _ in 0..<6 { _ = conductorSide.next() }
        var replay = Mulberry32(counter: conductorSide.generator.counter)
        for _ in 0..<1000 { XCTAssertEqual(Float(replay.next()), Float(conductorSide.next())) }
    }

    /// Play lands on its frame: silence before it (and the output limiter's look-ahead), sound after.
    func testPlayStartsOnItsFrame() throws {
        var state = KesshoState.defaults
        state["waveSpread"] = .number(0)
        state["synthAttack"] = .number(0.01)
        state["reverbEnabled"] = .bool(false)
        state["granularEnabled"] = .bool(false)
        let clock = Clock()
        let (host, conductor) = try conductor(state, clock: clock, lookahead: 0)
        let renderer = OfflineRenderer(host: host, blockSize: 64)
        var left: [Float] = []
        func render(_ blocks: Int) {
            for _ in 0..<blocks { renderer.renderBlock(64) { io in left += UnsafeBufferPointer(start: io[.ambientL], count: 64) } }
        }
        render(10)
        clock.frame = 1_000
        try conductor.play(fadeSeconds: 0)
        render(20)
        let latency = 71
        XCTAssertEqual(left[..<(1_000 + latency)].map(abs).max(), 0, "nothing before the play frame")
        XCTAssertGreaterThan(left[(1_000 + latency)..<(1_000 + latency + 200)].map(abs).max() ?? 0, 1e-5, "sound right after it")
    }

    /// A preset morph glides numbers and snaps choices at half way, landing on the target state.
    func testPresetMorphGlidesThenLands() throws {
        let clock = Clock()
        let (host, conductor) = try conductor(clock: clock, lookahead: 0)
        try conductor.play()
        var target = KesshoState.defaults
        target["masterVolume"] = .number(0.2)
        target["filterType"] = .string("bandpass")
        try conductor.load(target, crossfade: 2)
        clock.frame = 48_000  // half way
        try conductor.pump()
        let half = conductor.state
        XCTAssertEqual(half.number("masterVolume") ?? 0, 0.45, accuracy: 0.01)
        XCTAssertEqual(half.string("filterType"), "bandpass")
        try conductor.set("tension", .number(0.9))  // a fader moved mid-glide: it holds, the glide goes on
        clock.frame = 3 * 48_000
        try conductor.pump()
        target["tension"] = .number(0.9)
        XCTAssertEqual(conductor.state, target)
        let settings = drain(host).filter { $0.kind == .settings }
        XCTAssertEqual(settings.last?.settings.levels.masterVolume ?? 0, 0.2, accuracy: 1e-12)
        XCTAssertGreaterThan(settings.count, 20, "a settings step every 50 ms")
    }

    /// A sample-rate change: the conductor resumes on the new engine with the chord it had, and
    /// the phrase grid continues at the new rate.
    func testMovingToANewEngineResumesThereOnTheGrid() throws {
        let clock = Clock()
        let (old, conductor) = try conductor(clock: clock)
        try conductor.play()
        let first = drain(old).first { $0.kind == .chord }
        let host = try EngineHost(sampleRate: 44_100)
        let newClock = Clock()
        newClock.frame = 1_000
        try conductor.move(to: host, clock: {
            .init(frame: newClock.frame, unixSeconds: Self.start + 5 + Double(newClock.frame - 1_000) / 44_100)
        })
        let resumed = drain(host)
        XCTAssertEqual(resumed.map(\.kind), [.play, .chord, .grainSequence])
        XCTAssertEqual(resumed.map(\.frame), [1_000, 1_000, 1_000])
        XCTAssertEqual(resumed[1].chord[0], first?.chord[0])
        newClock.frame = 1_000 + 44_100 * 12
        try conductor.pump()
        // Phrase 551 starts 16 s after the hour, 11 s after the move: frame 1,000 + 11 × 44,100.
        XCTAssertEqual(drain(host).filter { $0.kind == .chord }.map(\.frame), [1_000 + 11 * 44_100])
        XCTAssertTrue(drain(old).isEmpty, "nothing more for the old engine")
    }

    /// Slider modes from the preset: a walking key wanders inside its range at 10 Hz, quantised,
    /// the same way for the same seed; a sample-and-hold key hands its range to the engine.
    func testWalkingAndSampleAndHoldSliders() throws {
        var sliders = KesshoSliders()
        sliders.modes["synthLevel"] = .walk
        sliders.ranges["synthLevel"] = KesshoDualRange(min: 0.2, max: 0.6)
        sliders.modes["grainSize"] = .sampleHold
        sliders.ranges["grainSize"] = KesshoDualRange(min: 30, max: 400)
        func walk(seed: UInt64) throws -> [Double] {
            let clock = Clock()
            let host = try EngineHost(sampleRate: 48_000)
            let conductor = AmbientConductor(host: host, state: .defaults, sliders: sliders, seed: seed, lookaheadSeconds: 0) {
                .init(frame: clock.frame, unixSeconds: Self.start + 3 + Double(clock.frame) / 48_000)
            }
            try conductor.play()
            var levels: [Double] = []
            for _ in 0..<300 {
                clock.frame += 4_800
                try conductor.pump()
                for e in drain(host) where e.kind == .settings || e.kind == .play {
                    levels.append(e.settings.levels.synthLevel)
                    XCTAssertEqual(e.settings.granular.grainSizeMinMilliseconds, 30)
                    XCTAssertEqual(e.settings.granular.grainSizeMaxMilliseconds, 400)
                }
            }
            return levels
        }
        let a = try walk(seed: 1), b = try walk(seed: 1), c = try walk(seed: 2)
        XCTAssertEqual(a.count, 301, "the play event, then a tick every 100 ms for 30 s")
        XCTAssertEqual(a, b, "the same seed walks the same way")
        XCTAssertNotEqual(a, c)
        let walked = a.dropFirst()
        XCTAssertTrue(walked.allSatisfy { $0 >= 0.2 - 1e-9 && $0 <= 0.6 + 1e-9 }, "inside the range")
        XCTAssertTrue(walked.allSatisfy { abs($0 * 100 - ($0 * 100).rounded()) < 1e-6 }, "on the 0.01 step")
        XCTAssertGreaterThan(walked.max()! - walked.min()!, 0.05, "it moves")
        XCTAssertLessThanOrEqual(zip(walked, walked.dropFirst()).map { abs($1 - $0) }.max()!, 0.4 * 0.05 + 0.011,
                                 "at most 5 % of the range per tick")
    }

    /// Live, the sound card's clock drifts from UTC: the grid follows the wall clock, so an hour
    /// at 200 ppm fast still puts the boundary on the frame that plays at its UTC second (±20 ms).
    func testGridFollowsTheWallClockWhenTheCardDrifts() throws {
        let clock = Clock()
        let host = try EngineHost(sampleRate: 48_000)
        let fast = 1.0002  // the card's frames run 200 ppm fast against UTC
        let conductor = AmbientConductor(host: host, lookaheadSeconds: 0.25) {
            .init(frame: clock.frame, unixSeconds: Self.start + Double(clock.frame) / 48_000 / fast)
        }
        try conductor.play()
        var sequences: [Int64] = []
        while clock.frame < 3_700 * 48_000 {
            clock.frame += 2_400
            try conductor.pump()
            sequences += drain(host).filter { $0.kind == .grainSequence }.map(\.frame)
        }
        // Phrase 110627550 + 225 starts 3600 s after the hour: on the card, at frame 3600·48000·fast.
        let hourLater = try XCTUnwrap(sequences.first { $0 > 3_599 * 48_000 })
        XCTAssertEqual(Double(hourLater), 3_600 * 48_000 * fast, accuracy: 0.02 * 48_000)
    }
}
