import ArgumentParser
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
    @Option(help: "Output WAV file (written atomically; devices and pipes are written through).")
    var out: String
    @Option(help: "Sample format: float (32-bit float), 24 or 16 (integer, TPDF-dithered).")
    var format: WAVWriter.Format = .float32
    @Option(name: .customLong("block-size"), help: "Frames per engine call; does not change the output.")
    var blockSize = 256

    func validate() throws {
        guard duration.isFinite, duration > 0, duration <= 24 * 3600 else {
            throw ValidationError("--duration must be between 0 and 86400 seconds")
        }
        guard (8000...384_000).contains(rate) else { throw ValidationError("--rate must be 8000–384000 Hz") }
        guard (1...65536).contains(blockSize) else { throw ValidationError("--block-size must be 1–65536") }
    }

    func run() throws {
        var job = RenderJob(values: try engine.parameterValues(), duration: duration, sampleRate: rate, format: format)
        job.blockSize = blockSize
        let result = try job.run(to: URL(fileURLWithPath: out))
        if let note = result.note { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
        let peak = result.peak > 0 ? String(format: "%.2f dBFS", 20 * log10(Double(result.peak))) : "silence"
        print("wrote \(out): \(result.frames) frames, \(duration) s at \(rate) Hz, \(format.rawValue), peak \(peak)")
    }
}
