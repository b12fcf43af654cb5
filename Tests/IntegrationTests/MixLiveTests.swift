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

    /// Half a second of silence, then 1.5 s of a chord: the silence leaves the start of the take to
    /// the tone alone.
    static let music: [Float] = [Float](repeating: 0, count: rate / 2) + (0..<(3 * rate / 2)).map { i in
        let t = Double(i) / Double(rate)
        return Float(0.2 * sin(2 * .pi * 220 * t) + 0.15 * sin(2 * .pi * 330 * t + 1) + 0.1 * sin(2 * .pi * 445 * t + 2))
    }
    /// The least music a take must hold, compared sample for sample, to count.
    static let leastMusic = rate / 2

    func testLiveMixEqualsRenderWithTheSameMusic() throws {
        // A dropped cycle moves the music against the engine's clock (the client lost the music of
        // that cycle, or the player sent it late), which no render reproduces: a take is compared
        // between xruns, and taken again when that leaves too little music.
        try judgeThroughXruns("mix live", takes: 5, liveAgainstRender)
    }

    /// One take; nil when live equals the render from the music's arrival to the next xrun (with the xruns during it).
    func liveAgainstRender() throws -> (String?, Int) {
        let rec = try recorder(seconds: 2.5)
        let client = try startClient(settings, recorder: rec)
        defer { stopClient(client) }
        let player = try JackPlayer(server: try server.name, samples: Self.music, name: "music")
        try player.connect(to: "entrain:mix_L")
        try player.connect(to: "entrain:mix_R")
        try rec.connect(["entrain:entrainment_L", "entrain:entrainment_R"])
        final class Take: @unchecked Sendable { var samples: [[Float]] = []; var xruns = 0 }  // read after the thread ends
        let take = Take()
        let thread = Thread { (take.samples, take.xruns) = (try? rec.recordCountingXruns()) ?? ([], 0) }
        thread.start()
        player.play()
        while !thread.isFinished { usleep(10_000) }
        let xruns = take.xruns + player.timeline.losses.count
        guard take.samples.count == 2 else { return ("nothing recorded", xruns) }
        let live = take.samples
        // Stretches of the take no xrun touched (see `untouchedStretches`).
        let stretches = rec.untouchedStretches

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mixlive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Where a stretch sits on the engine's clock: the tone alone, found in a render without
        // music; the stretch judged is the first one where the take leaves that render (the music came in).
        let toneOnly = try render(folder.appendingPathComponent("tone.wav"), extra: ["--duration", "30"])
        guard let sound = Measure.firstSoundOnEveryChannel(live) else { return ("recorded only silence", xruns) }
        var found: (c0: Int, end: Int, e: Int, cm: Int)?
        for stretch in stretches where stretch.upperBound > max(stretch.lowerBound, sound) + 3 {
            let end = stretch.upperBound
            let c0 = max(stretch.lowerBound, sound)
            guard let e = (0..<(toneOnly[0].count - live[0].count)).first(where: { o in
                (0..<3).allSatisfy { toneOnly[0][o + $0] == live[0][c0 + $0] }
            }) else { return ("the take leaves the tone-only render across an xrun, \(c0) frames in", xruns) }
            if let cm = (c0..<end).first(where: { live[0][$0] != toneOnly[0][e + $0 - c0] }) {
                found = (c0, end, e, cm)
                break
            }
        }
        guard let (c0, end, e, cm) = found else { return ("the music never arrived in a stretch without xruns", xruns) }
        let music = end - cm
        guard music >= Self.leastMusic else {
            return (String(format: "%.2f s of music before an xrun", Double(music) / Double(Self.rate)), xruns)
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

        // Over the stretch: the largest difference, in dBFS.
        var largest: Float = 0
        for ch in 0..<2 { for j in c0..<end { largest = max(largest, abs(live[ch][j] - offline[ch][e + j - c0])) } }
        let level = largest == 0 ? -Double.infinity : 20 * log10(Double(largest))
        print("mix live vs render: \(end - c0) frames compared (\(music) with music\(stretches == [0..<live[0].count] ? "" : ", between xruns")), "
              + "largest difference \(largest == 0 ? "none (identical)" : String(format: "%.1f dBFS", level)), \(xruns) xrun(s)")
        return (level <= -90 ? nil : String(format: "live and render differ by %.1f dBFS", level), xruns)
    }

    func render(_ out: URL, extra: [String]) throws -> [[Float]] {
        let result = try EntrainBinary.run(["render", "--quiet", "--fade-in", "0.05", "--fade-out", "0.2", "--out", out.path] + settings + extra)
        XCTAssertEqual(result.status, 0, result.error)
        return try WAVFile(contentsOf: out).samples
    }
}
