import ArgumentParser
import EntrainCore
import EntrainEngine
import Foundation

extension WAVWriter.Format: ExpressibleByArgument {}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render offline to a WAV file, through the same engine code as the live client.")

    @OptionGroup var engine: EngineOptions
    @Option(help: "Length in seconds, including the fade-out at the end.")
    var duration: Double
    @Option(help: "Sample rate in Hz.")
    var rate: Int = 48000
    @Option(help: "Output WAV file (written atomically).")
    var out: String
    @Option(help: "Sample format: float (32-bit float), 24 or 16 (integer, TPDF-dithered).")
    var format: WAVWriter.Format = .float32
    @Option(name: .customLong("block-size"), help: "Frames per engine call; does not change the output.")
    var blockSize = 1024

    func validate() throws {
        guard duration.isFinite, duration > 0, duration <= 24 * 3600 else {
            throw ValidationError("--duration must be between 0 and 86400 seconds")
        }
        guard (8000...384_000).contains(rate) else { throw ValidationError("--rate must be 8000–384000 Hz") }
        guard (1...65536).contains(blockSize) else { throw ValidationError("--block-size must be 1–65536") }
    }

    /// Fade-in and fade-out must fit in the render: if they do not, both shrink in proportion.
    func fitFades(into values: ParameterValues) throws -> ParameterValues {
        let table = Engine.parameterTable
        let fadeIn = try table.entry(for: "/master/fade-in").index
        let fadeOut = try table.entry(for: "/master/fade-out").index
        let total = values[fadeIn] + values[fadeOut]
        guard total > duration else { return values }
        var fitted = values
        fitted[fadeIn] *= duration / total
        fitted[fadeOut] *= duration / total
        FileHandle.standardError.write(Data(String(format: "note: fades shortened to %.2f s in and %.2f s out to fit %.2f s\n",
                                                   fitted[fadeIn], fitted[fadeOut], duration).utf8))
        return fitted
    }

    func run() throws {
        let values = try fitFades(into: engine.parameterValues())
        let host = try EngineHost(sampleRate: Double(rate), values: values)
        let frames = Int((duration * Double(rate)).rounded())
        // End with the fade-out, finishing exactly on the last frame.
        let fadeOutFrames = Int(try host.value(of: "/master/fade-out") * Double(rate))
        try host.stop(at: Int64(max(0, frames - fadeOutFrames)))

        let writer = try WAVWriter(url: URL(fileURLWithPath: out), format: format, channels: 2, sampleRate: rate,
                                   expectedFrames: frames)
        let renderer = OfflineRenderer(host: host, blockSize: blockSize)
        var peak: Float = 0
        try renderer.render(frames: frames) { left, right in
            try writer.write([left, right])
            for i in 0..<left.count { peak = max(peak, abs(left[i]), abs(right[i])) }
        }
        try writer.finish()
        let peakText = peak > 0 ? String(format: "%.2f dBFS", 20 * log10(Double(peak))) : "silence"
        print("wrote \(out): \(frames) frames, \(duration) s at \(rate) Hz, \(format.rawValue), peak \(peakText)")
    }
}
