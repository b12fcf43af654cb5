import CJack
import Foundation
import TestSupport
import XCTest

/// Changes of the JACK graph while playing: a re-patch that changes the latency, a new period
/// size, and what we report about our own latency.
final class GraphChangeTests: LiveClientTestCase {
    override class var needsOwnServer: Bool { true }  // changes the period

    /// A re-patch makes the audio path 2,048 frames slower mid-strobe: the light's compensation
    /// glides to the new delay, so every pulse and gap keeps its length within the glide's 1/16
    /// (a jump would cut a pulse short or repeat part of one: a flash off the strobe's grid).
    /// A take with xruns that misses is taken again (under PipeWire a loaded run once cut a pulse
    /// to 185 frames).
    func testALatencyChangeGlidesTheLightWithoutAFlashOffTheStrobesGrid() throws {
        try judgeThroughXruns("latency glide", latencyGlideTake)
    }

    private func latencyGlideTake() throws -> (miss: String?, xruns: Int) {
        let server = try self.server
        let lights = try JackRecorder(server: server.name, channels: 1, seconds: 3, name: "lights")
        let chain = try JackRecorder(server: server.name, channels: 1, seconds: 0.1, name: "chain", playbackLatencies: [2048])
        let client = try startClient(["--arm-strobe", "--mode", "isochronic", "--beat", "10", "--set", "/led/edge=0",
                                      "--set", "/led/duty=0.5"], recorder: lights)
        defer { stopClient(client) }
        try lights.connect(["entrain:led"])
        try lights.waitForSound()
        let take = try record(lights) {
            try lights.waitForFrames(38_400)
            try chain.connect(["entrain:entrainment_L"])
        }
        var runs: [(lit: Bool, start: Int, length: Int)] = []
        for (i, v) in take.enumerated() {
            let lit = v > 0.5
            if let last = runs.last, last.lit == lit { runs[runs.count - 1].length += 1 } else { runs.append((lit, i, 1)) }
        }
        // A cycle an xrun cost the take: either the client played it (the run lacks those frames)
        // or every client lost it (the run is whole); the length nearer the strobe's counts.
        let losses = lights.timeline.losses
        for k in runs.indices {
            let lost = losses.filter { $0.position >= runs[k].start && $0.position <= runs[k].start + runs[k].length }.reduce(0) { $0 + $1.frames }
            if abs(runs[k].length + lost - 2400) < abs(runs[k].length - 2400) { runs[k].length += lost }
        }
        let whole = runs.dropFirst().dropLast()  // the first and last are cut by the recording
        let xruns = lights.xruns + losses.count
        guard whole.count > 40 else { return ("\(whole.count) pulses and gaps where a 10 Hz strobe over 3 s gives 60", xruns) }
        if let bad = whole.first(where: { abs($0.length - 2400) > 2400 / 10 }) {
            return ("\(bad.lit ? "pulse" : "gap") of \(bad.length) frames (2,400 ± 240): \(whole.map(\.length))", xruns)
        }
        let stretch = whole.reduce(0) { $0 + $1.length } - whole.count * 2400
        if abs(stretch - 2048) > 400 { return ("the glide stretched the pattern by \(stretch) frames, not the new delay (2,048 ± 400)", xruns) }
        return (nil, xruns)
    }

    /// The period changes from 256 to 1,024 and 64 frames while a tone plays: the recording stays
    /// one steady sine across both changes (each sample where the two before it say it must be).
    /// An xrun can cost the recorder a cycle, or the client one (stale samples the recorder
    /// cannot place: at a 64-frame period this machine has several a second), so the sine is
    /// judged in the stretches no xrun touched, and a take with an xrun within 2,048 frames of a
    /// change is taken again (up to five, two seconds each): a step at a change, in every take or
    /// in one without xruns, still fails.
    func testABufferSizeChangeLeavesNoStepInTheSound() throws {
        try judgeThroughXruns("period change", takes: 5, periodChangeTake)
    }

    private func periodChangeTake() throws -> (miss: String?, xruns: Int) {
        let rec = try recorder(channels: 1, seconds: 2)
        let client = try startClient(["--mode", "monaural", "--carrier", "300", "--beat", "0", "--volume", "0.5"], recorder: rec)
        defer {
            jack_set_buffer_size(rec.client, 256)
            stopClient(client)
        }
        try rec.connect(["entrain:entrainment_L"])
        try rec.waitForSound()
        let take = try record(rec) {
            try rec.waitForFrames(24_000)
            XCTAssertEqual(jack_set_buffer_size(rec.client, 1024), 0)
            try rec.waitForFrames(48_000)
            XCTAssertEqual(jack_set_buffer_size(rec.client, 64), 0)
        }
        let timeline = rec.timeline
        let xruns = rec.xruns + timeline.losses.count
        let lengths = Set(timeline.cycles.map(\.length))
        guard lengths == [256, 1024, 64] else { return ("the take spans periods \(lengths.sorted()), not 256, 1,024 and 64", xruns) }
        let peak = Double(Measure.peak(take))
        guard peak > 0.1 else { return ("a peak of \(peak) where the tone plays at 0.5", xruns) }
        let sineStep = 2 * Double.pi * 300 / 48_000 * peak
        // Judged where no xrun touched the take (a cycle the client missed leaves stale samples
        // there), and both changes must lie well inside such a stretch: they are what is judged.
        let stretches = rec.untouchedStretches, margin = 2048
        let changes = zip(timeline.cycles, timeline.cycles.dropFirst()).filter { $0.length != $1.length }.map(\.1.position)
        guard changes.allSatisfy({ change in stretches.contains { $0.lowerBound + margin <= change && change + margin <= $0.upperBound } }) else {
            return ("an xrun within \(margin) frames of a period change (at \(changes))", xruns)
        }
        let departure = stretches.filter { $0.count > 8 }
            .map { Measure.largestSineDeparture(Array(take[$0]), frequency: 300, sampleRate: 48_000, from: 0) }.max() ?? .infinity
        // The whole take, xruns and all, shows their steps (what the plain sample-to-sample jump saw).
        let unjudged = Measure.largestSineDeparture(take, frequency: 300, sampleRate: 48_000, from: 0)
        print(String(format: "period change 256→1024→64: largest departure from the sine %.2e (a sine step %.4f) in %d stretch(es) clear of xruns; the recorder lost %d cycle(s), and the whole take steps by up to %.3f",
                     departure, sineStep, stretches.count, timeline.losses.count, unjudged))
        guard departure < sineStep * 0.1 else {
            return (String(format: "a glitch across the period changes: %.2e from the sine, over a tenth of its step %.4f", departure, sineStep), xruns)
        }
        return (nil, xruns)
    }

    /// Our outputs declare the output limiter's look-ahead (1.5 ms at 48 kHz, less one frame) as
    /// capture latency, so a DAW recording them lines them up with what it records elsewhere.
    func testOurOutputsReportTheLimitersLookAheadAsCaptureLatency() throws {
        let rec = try recorder(channels: 1, seconds: 0.1)
        let client = try startClient([], recorder: rec)
        defer { stopClient(client) }
        try rec.connect(["entrain:entrainment_L"])
        func capture(_ name: String) -> jack_latency_range_t {
            var range = jack_latency_range_t()
            jack_port_get_latency_range(jack_port_by_name(rec.client, "entrain:\(name)"), JackCaptureLatency, &range)
            return range
        }
        let names = ["entrainment_L", "ambient_R", "led", "haptic"]
        // Latencies are worked out after a graph change (PipeWire's a cycle or so later).
        _ = waitUntil(timeout: 5) { names.allSatisfy { capture($0).max == 71 } }
        for name in names {
            let range = capture(name)
            XCTAssertEqual(range.min, 71, name)
            XCTAssertEqual(range.max, 71, name)
        }
    }
}
