import EntrainDSP
import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// The mix input live: music played into mix_L/R through a real JACK graph comes out of the
/// entrainment pair exactly as `entrain render --mix` makes it, every effect on.
final class MixLiveTests: LiveClientTestCase {
    static let rate = 48_000
    /// Every mix effect at once, voice 1 and a pink bed quiet under it: the bed is what lines the take
    /// up with a render (a tone alone repeats, so it would match wherever its phases come round again).
    let settings = ["--carrier", "300", "--beat", "5", "--volume", "0.3", "--noise", "pink", "--noise-level", "0.2",
                    "--set", "/mix/level=0.8", "--set", "/mix/am/depth=0.4", "--set", "/mix/am/rate=7",
                    "--set", "/mix/pulse/depth=0.3", "--set", "/mix/pulse/rate=4", "--set", "/mix/spin/width=0.5",
                    "--set", "/mix/spin/rate=0.5", "--set", "/mix/beat/depth=0.7", "--set", "/mix/beat/rate=6"]

    /// 1 s of silence, then 2 s of a chord: the silence leaves the start of the take to the tone alone.
    static let music: [Float] = [Float](repeating: 0, count: rate) + (0..<(2 * rate)).map { i in
        let t = Double(i) / Double(rate)
        return Float(0.2 * sin(2 * .pi * 220 * t) + 0.15 * sin(2 * .pi * 330 * t + 1) + 0.1 * sin(2 * .pi * 445 * t + 2))
    }

    func testLiveMixEqualsRenderWithTheSameMusic() throws {
        // A take the server broke (an xrun) is taken again; a difference without one is a failure.
        try judgeThroughXruns("mix live", liveAgainstRender)
    }

    /// One take; nil when live equals the render (with the xruns the recorder saw).
    func liveAgainstRender() throws -> (String?, Int) {
        let rec = try recorder(seconds: 4)
        let client = try startClient(settings, recorder: rec)
        defer { stopClient(client) }
        let player = try JackPlayer(server: try server.name, samples: Self.music, name: "music")
        try player.connect(to: "entrain:mix_L")
        try player.connect(to: "entrain:mix_R")
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        final class Take: @unchecked Sendable { var samples: [[Float]] = [] }  // read after the thread ends
        let take = Take()
        let thread = Thread { take.samples = (try? rec.record()) ?? [] }
        thread.start()
        player.play()
        while !thread.isFinished { usleep(10_000) }
        // A cycle the player lost moves the rest of the music a period later than the render has it.
        let xruns = rec.xruns + player.timeline.losses.count
        guard take.samples.count == 2 else { return ("nothing recorded", xruns) }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mixlive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Where the take sits on the engine's clock: the tone alone, found in a render without music.
        let toneOnly = try render(folder.appendingPathComponent("tone.wav"), extra: ["--duration", "30"])
        guard let c0 = Measure.firstSoundOnEveryChannel(take.samples) else { return ("recorded only silence", xruns) }
        let live = take.samples
        guard let e = (0..<(toneOnly[0].count - live[0].count)).first(where: { o in
            (0..<3).allSatisfy { toneOnly[0][o + $0] == live[0][c0 + $0] }
        }) else { return ("the take's start does not occur in the render", xruns) }
        // Where the music came in: the first frame the take leaves the tone-only render.
        guard let cm = (c0..<live[0].count).first(where: { live[0][$0] != toneOnly[0][e + $0 - c0] }) else {
            return ("the music never arrived", xruns)
        }
        let firstSound = try XCTUnwrap(Self.music.firstIndex { $0 != 0 })
        let limiterDelay = PeakLimiter(sampleRate: Double(Self.rate), ceilingDecibels: -1).latency  // the output's look-ahead
        let arrival = e + (cm - c0) - limiterDelay - firstSound  // engine frame of the music's first sample
        guard arrival >= 0 else { return ("music arrived before the engine started?", xruns) }
        // The same music, on the same engine frame, through render --mix.
        let musicFile = folder.appendingPathComponent("music.wav")
        let writer = try WAVWriter(url: musicFile, format: .float32, channels: 1, sampleRate: Self.rate)
        let padded = [Float](repeating: 0, count: arrival) + Self.music
        try padded.withUnsafeBufferPointer { try writer.write([$0]) }
        try writer.finish()
        let offline = try render(folder.appendingPathComponent("mixed.wav"), extra: ["--mix", musicFile.path, "--duration", "30"])

        // From the first sample of the take on: the largest difference, in dBFS.
        let n = live[0].count - c0
        var largest: Float = 0
        for ch in 0..<2 { for j in 0..<n { largest = max(largest, abs(live[ch][c0 + j] - offline[ch][e + j])) } }
        let music = (cm..<live[0].count).count
        XCTAssertGreaterThan(music, Self.rate, "at least a second of music in the take")
        let level = largest == 0 ? -Double.infinity : 20 * log10(Double(largest))
        print("mix live vs render: \(n) frames compared (\(music) with music), largest difference \(largest == 0 ? "none (identical)" : String(format: "%.1f dBFS", level)), \(xruns) xrun(s)")
        return (level <= -90 ? nil : String(format: "live and render differ by %.1f dBFS", level), xruns)
    }

    func render(_ out: URL, extra: [String]) throws -> [[Float]] {
        let result = try EntrainBinary.run(["render", "--quiet", "--fade-in", "0.05", "--fade-out", "0.2", "--out", out.path] + settings + extra)
        XCTAssertEqual(result.status, 0, result.error)
        return try WAVFile(contentsOf: out).samples
    }
}
