import ArgumentParser
import BeatLab
import EntrainCore
import EntrainEngine
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the engine: offline render speed and the cost of the process path.",
        discussion: "Each figure is the median of --runs runs (this machine's speed varies from run to run).")

    @Option(help: "Seconds of audio for the offline measurements.")
    var seconds = 600.0
    @Option(help: "Seconds of audio per process-path measurement.")
    var processSeconds = 60.0
    @Option(help: "Runs per measurement; the median is reported.")
    var runs = 5
    @Option(name: .customLong("ambient-presets"), help: "Directory of Kessho presets for the ambient measurements (default: the shipped ones).")
    var ambientPresets = "presets/ambient"
    @Flag(name: .customLong("ambient-only"), help: "Only the ambient measurements.")
    var ambientOnly = false
    @Flag(name: .customLong("inserts-only"), help: "Only the hosted LV2 slots' cost.")
    var insertsOnly = false
    @Flag(help: "No progress display on stderr.")
    var quiet = false

    func run() throws {
        // The benchmark session: one binaural voice (200 Hz / 10 Hz) plus pink noise, as SBaGen's
        // `pink/40 200+10/20` would be.
        let values = try EngineOptions.parse(["--noise", "pink", "--noise-level", "0.4"]).parameterValues()
        print("machine: \(Self.cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores; median of \(runs) runs")
        if ambientOnly { return try benchAmbient(values) }
        if insertsOnly { return try benchInserts(values) }

        let minutes = String(format: "%.0f min", seconds / 60)
        let engineOnly = try median { try timeEngine(values, frames: Int(seconds * 48_000), block: 256, allPorts: false) }
        print(String(format: "engine only, binaural + pink, 48 kHz, %@ (the entrainment pair, as a render): %.3f s = %.0fx real time",
                     minutes, engineOnly, seconds / engineOnly))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-bench-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        for format in [WAVWriter.Format.pcm16, .float32] {
            let job = RenderJob(values: values, duration: seconds, sampleRate: 48_000, format: format)
            let elapsed = try median { try time { _ = try job.run(to: file) } }
            print(String(format: "entrain render to a %@ WAV file, %@: %.3f s = %.0fx real time",
                         format == .pcm16 ? "16-bit" : "float", minutes, elapsed, seconds / elapsed))
        }

        for period in [64, 256] {
            let frames = Int(processSeconds * 48_000)
            let elapsed = try median { try timeEngine(values, frames: frames, block: period, allPorts: true) }
            let nsPerFrame = elapsed / Double(frames) * 1e9
            print(String(format: "process path, every port connected (LED and haptic too), period %3d: %.1f ns/frame = %.2f %% of one core at 48 kHz",
                         period, nsPerFrame, nsPerFrame * 48_000 / 1e9 * 100))
        }
        try benchBeatAnalysis(values)
        try benchInserts(values)
        try benchAmbient(values)
    }

    /// The beat analysis alone (FFT edge and kernel): drums into beat_in at a 64-frame period,
    /// analysis on minus off.
    func benchBeatAnalysis(_ values: ParameterValues) throws {
        guard let drums = BeatCorpus.item(named: "rock-120") else { return }
        let active = try Engine.parameterTable.entry(for: "/beat/active").index
        var results: [Double] = []
        for on in [false, true] {
            var v = values
            v[active] = on ? 1 : 0
            results.append(try median {
                let renderer = OfflineRenderer(host: try EngineHost(sampleRate: 48_000, values: v), blockSize: 64)
                return time { _ = renderer.analyse(drums.samples) }
            })
        }
        let perSecond = (results[1] - results[0]) / drums.duration
        print(String(format: "beat analysis (flux onsets, tempo, beats) of drums at a 64-frame period: %.2f ms per second of input = %.2f %% of one core",
                     perSecond * 1000, perSecond * 100))
    }

    func median(_ measure: () throws -> Double) rethrows -> Double {
        var times: [Double] = []
        let progress = Progress("measuring", quiet: quiet)
        defer { progress.finish() }
        for run in 0..<max(1, runs) {
            times.append(try measure())
            progress.update(run + 1, of: max(1, runs))
        }
        return times.sorted()[times.count / 2]
    }

    /// CPU seconds the calling thread spends in `body`: what a share of one core means, and it
    /// stays true when other processes keep the cores busy (wall time would count their turns too).
    func time(_ body: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        let start = now()
        try body()
        return now() - start
    }

    /// Seconds to render `frames` through the engine in blocks of `block`, into memory: every
    /// port (as a live client with everything connected), or the entrainment pair only (as a render).
    func timeEngine(_ values: ParameterValues, frames: Int, block: Int, allPorts: Bool) throws -> Double {
        let host = try EngineHost(sampleRate: 48_000, values: values)
        let renderer = OfflineRenderer(host: host, blockSize: block)
        var checksum: Float = 0
        let left = UnsafeMutablePointer<Float>.allocate(capacity: block), right = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { left.deallocate(); right.deallocate() }
        let elapsed = time {
            var done = 0
            while done < frames {
                let n = min(block, frames - done)
                if allPorts {
                    renderer.renderBlock(n) { io in checksum += io[.entrainmentL]![0] }
                } else {
                    renderer.render(frames: n, intoLeft: left, right: right)
                    checksum += left[0]
                }
                done += n
            }
        }
        if checksum.isNaN { print("warning: NaN in output") }
        return elapsed
    }

    static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let name = line.split(separator: ":", maxSplits: 1).last else { return "unknown CPU" }
        return name.trimmingCharacters(in: .whitespaces)
    }
}
