import BeatLab
import Foundation
import Kessho
import TestSupport
import XCTest

/// The drums keeping time live: with the engine's own grid, and with JACK transport while a
/// timebase master runs (`--set /ambient/tempoSource=jack`).
final class AmbientTempoLiveTests: LiveClientTestCase {
    override class var needsOwnServer: Bool { true }  // rolls the transport

    /// A kick on every eighth note and nothing else: its onsets show the tempo in force.
    func kickPreset(bpm: Double = 120, changes: [(String, KesshoValue)] = []) throws -> URL {
        var state = KesshoState.defaults
        for (key, value) in [("synthLevel", KesshoValue.number(0)), ("synthReverbSend", .number(0)), ("granularEnabled", .bool(false)),
                             ("reverbEnabled", .bool(false)), ("drumEnabled", .bool(true)), ("drumLevel", .number(0.8)),
                             ("drumEuclidMasterEnabled", .bool(true)), ("drumEuclidBaseBPM", .number(bpm)),
                             ("drumEuclid1Enabled", .bool(true)), ("drumEuclid1Steps", .number(4)), ("drumEuclid1Hits", .number(4)),
                             ("drumKickDecay", .number(60)), ("drumKickDelaySend", .number(0))] + changes {
            state[key] = value
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kicks-\(UUID().uuidString).json")
        try Data(KesshoPresetWriter.data(KesshoPreset(name: "kicks", state: state))).write(to: file)
        return file
    }

    /// Onset times (s): where the 2 ms envelope rises past a third of the take's peak.
    func onsets(_ x: [Float]) -> [Double] {
        let hop = 96, peak = Measure.peak(x)
        var out: [Double] = [], armed = true
        for start in stride(from: 0, to: x.count - hop, by: hop) {
            let level = Measure.peak(x[start..<(start + hop)])
            if armed && level > peak / 3 { out.append(Double(start) / 48_000); armed = false }
            if level < peak / 10 { armed = true }
        }
        return out
    }

    func medianInterval(_ onsets: [Double]) -> Double {
        let gaps = zip(onsets, onsets.dropFirst()).map { $1 - $0 }.sorted()
        return gaps.isEmpty ? 0 : gaps[gaps.count / 2]
    }

    /// Four seconds of the kicks' onsets (after the first half second), with the xruns and
    /// cycles lost while they were recorded.
    func kicks(_ extra: [String], bpm: Double = 120, before: (() throws -> Void)? = nil) throws -> (onsets: [Double], xruns: Int) {
        let preset = try kickPreset(bpm: bpm)
        defer { try? FileManager.default.removeItem(at: preset) }
        let rec = try recorder(seconds: 4)
        let client = try startClient(["--ambient-preset", preset.path, "--volume", "0"] + extra, recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:ambient_L", "entrain:ambient_R"])
        try before?()
        let (take, xruns) = try rec.recordCountingXruns()
        return (onsets(Array(take[0][24_000...])), xruns)
    }

    /// The kicks play eighths `seconds` apart: a take judged through xruns (a cycle the client
    /// lost while the transport or the grid ran on moves the kicks after it; a clean clone's
    /// take under a 100 BPM transport read 0.286 s for 0.3).
    func expectEighths(_ seconds: Double, accuracy: Double, _ what: String, _ take: () throws -> (onsets: [Double], xruns: Int)) throws {
        try judgeThroughXruns(what) {
            let (times, xruns) = try take()
            if times.count <= 8 { return ("\(times.count) kicks in 3.5 s of eighths", xruns) }
            let interval = medianInterval(times)
            return (abs(interval - seconds) > accuracy ? String(format: "%@: a median interval of %.3f s, not %.3f", what, interval, seconds) : nil, xruns)
        }
    }

    func testPhraseGridKeepsTheStatesTempo() throws {
        try expectEighths(0.25, accuracy: 0.004, "eighths at 120 BPM") { try kicks([]) }
    }

    func testJackTransportSetsTheTempo() throws {
        let master = try JackTimebaseMaster(server: try server.name, bpm: 100)
        defer { master.stop() }
        try expectEighths(0.3, accuracy: 0.004, "eighths at the transport's 100 BPM") { try kicks(["--set", "/ambient/tempoSource=jack"]) }
    }

    /// The bar's phase: one kick a bar (8 eighths, 1 hit) under a 100 BPM transport lands at
    /// the same place in every bar — the hit's eighth of the transport's bar (a bar is 115,200
    /// frames) — within a few milliseconds (the ceiling's look-ahead and the onset finder's 2 ms hops).
    func testJackTransportSetsTheBarPhase() throws {
        let master = try JackTimebaseMaster(server: try server.name, bpm: 100)
        defer { master.stop() }
        let preset = try kickPreset(bpm: 120, changes: [("drumEuclid1Steps", .number(8)), ("drumEuclid1Hits", .number(1))])
        defer { try? FileManager.default.removeItem(at: preset) }
        try judgeThroughXruns("bar phase under JACK transport") { try barPhaseTake(preset) }
    }

    private func barPhaseTake(_ preset: URL) throws -> (miss: String?, xruns: Int) {
        let rec = try recorder(seconds: 14)
        let client = try startClient(["--ambient-preset", preset.path, "--volume", "0", "--set", "/ambient/tempoSource=jack"], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:ambient_L", "entrain:ambient_R"])
        let (channels, xruns) = try rec.recordCountingXruns()
        let take = channels[0], timeline = rec.timeline
        XCTAssertNotNil(timeline.transportFrame(of: 0), "the transport rolls")
        let bar = 4 * 48_000 * 60 / 100, eighth = bar / 8
        let hit = KesshoEuclid.drumPattern(steps: 8, hits: 1, rotation: 0).firstIndex(of: true) ?? 0
        // After the first two seconds (the engine joining the transport): every kick's place in its bar.
        // Each onset on the transport: the recorder notes the transport's frame in every cycle it
        // records. A cycle every client lost to an xrun moves the transport a period on while the
        // engine stood still, and the engine's phase follows back over the next beats: kicks
        // within two seconds after a lost cycle are not judged, and a take with too few left
        // (a clean clone's lost cycles before each of its five kicks) is taken again.
        let losses = timeline.losses.map(\.position)
        let kicks = onsets(Array(take[96_000...])).map { 96_000 + Int(($0 * 48_000).rounded()) }
        let phases = kicks.compactMap { i -> (phase: Int, judged: Bool)? in
            guard let transport = timeline.transportFrame(of: i) else { return nil }
            let phase = ((transport - hit * eighth) % bar + bar + bar / 2) % bar - bar / 2
            return (phase, !losses.contains { $0 <= i && $0 > i - 96_000 })
        }
        print("bar phase under JACK transport: kicks \(phases) frames from the bar's hit step, \(losses.count) cycle(s) lost")
        let judged = phases.filter(\.judged).map(\.phase)
        if phases.count < 4 { return ("\(phases.count) kicks where a kick a bar for 12 s at 100 BPM gives 4 or more", xruns) }
        if judged.count < 2 { return ("kicks clear of lost cycles: \(phases), \(losses.count) cycle(s) lost", xruns) }
        if let off = judged.first(where: { !(-96...960).contains($0) }) {
            return ("a kick \(off) frames from the bar's hit step (-96...960): \(phases), \(losses.count) cycle(s) lost", xruns)
        }
        return (nil, xruns)
    }

    /// A 120 BPM drum track on beat_in: once the tracker has its beat, the kicks (90 BPM in the
    /// state) play eighths of the track's tempo instead.
    func testBeatOnBeatInSetsTheTempo() throws {
        let server = try self.server
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: server.sampleRate))
        try expectEighths(0.25, accuracy: 0.01, "eighths at the track's 120 BPM, not the state's 90") {
            let drums = try JackPlayer(server: server.name, samples: item.samples, name: "drums")
            let (times, xruns) = try kicks(["--set", "/ambient/tempoSource=beat"], bpm: 90) {
                try drums.connect(to: "entrain:beat_in")
                drums.play()
                try drums.waitForSample(8 * 48_000)  // the tracker locks within about 5 s
            }
            return (times, xruns + drums.timeline.losses.count)
        }
    }
}
