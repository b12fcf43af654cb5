import ArgumentParser
import EntrainCore
import EntrainEngine
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the engine: offline real-time factor and the cost of the process path.")

    @Option(help: "Seconds of audio for the offline render measurement.")
    var seconds = 600.0
    @Option(help: "Seconds of audio per process-path measurement.")
    var processSeconds = 60.0

    func run() throws {
        let rate = 48000.0
        // The benchmark session: one binaural voice (200 Hz / 10 Hz) plus pink noise, as SBaGen's
        // typical `pink/40 200+10/20` would be.
        var options = try EngineOptions.parse(["--noise", "pink", "--noise-level", "0.4"])
        options.fadeIn = "2"
        let values = try options.parameterValues()

        print("machine: \(Self.cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let frames = Int(seconds * rate)
        let offline = try measure(values: values, rate: rate, frames: frames, block: 4096)
        print(String(format: "offline render, binaural + pink, 48 kHz: %.0f s of audio in %.3f s = %.0fx real time",
                     seconds, offline, seconds / offline))
        for period in [64, 256] {
            let n = Int(processSeconds * rate)
            let elapsed = try measure(values: values, rate: rate, frames: n, block: period)
            let nsPerFrame = elapsed / Double(n) * 1e9
            let load = nsPerFrame * rate / 1e9 * 100
            print(String(format: "process path, period %3d: %.1f ns/frame (%.2f %% of one core at 48 kHz)",
                         period, nsPerFrame, load))
        }
    }

    /// Wall-clock seconds to render `frames` in blocks of `block`.
    private func measure(values: ParameterValues, rate: Double, frames: Int, block: Int) throws -> Double {
        let host = try EngineHost(sampleRate: rate, values: values)
        let renderer = OfflineRenderer(host: host, blockSize: block)
        var checksum: Float = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            renderer.renderBlock(n) { io in checksum += io[.entrainmentL]![0] }
            done += n
        }
        let end = DispatchTime.now().uptimeNanoseconds
        if checksum.isNaN { print("warning: NaN in output") }
        return Double(end - start) / 1e9
    }

    static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let name = line.split(separator: ":", maxSplits: 1).last else { return "unknown CPU" }
        return name.trimmingCharacters(in: .whitespaces)
    }
}


