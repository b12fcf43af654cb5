import ArgumentParser
import EntrainAddressSpace
import EntrainAmbient
import EntrainControl
import EntrainEngine
import Foundation
import Kessho

extension WAVWriter.Format: ExpressibleByArgument {}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render offline to a WAV, FLAC, Ogg Vorbis or Opus file, through the same engine code as the live client.")

    @OptionGroup var engine: EngineOptions
    @OptionGroup var session: SessionOption
    @OptionGroup var ambient: AmbientOptions
    @OptionGroup var inserts: InsertOptions
    @Option(name: .customLong("start-time"), help: ArgumentHelp("UTC wall-clock time the render starts at, ISO 8601 (e.g. 2026-02-02T14:00:00Z): places the ambient phrase grid and its seeds. Default: now.", valueName: "time"))
    var startTime: String?
    @Option(help: ArgumentHelp("Also write one WAV per output pair (entrainment.wav, ambient.wav) into this directory.", valueName: "dir"))
    var stems: String?
    @Option(help: "Length in seconds, including the fade-out at the end (default with --session: the session's length; with --mix: the mix file's).")
    var duration: Double?
    @Option(help: "Sample rate in Hz (default: the --mix file's, else 48000).")
    var rate: Int?
    @Option(help: "Output file: .wav, .flac, .ogg (Vorbis) or .opus by its extension (written atomically; devices and pipes are written through as WAV).")
    var out: String
    @Option(help: "Sample format: float (32-bit float), 24 or 16 (integer, TPDF-dithered). Default: float for WAV, 24 for FLAC; Ogg and Opus take none.")
    var format: WAVWriter.Format?
    @Option(help: ArgumentHelp("Music for the mix input (WAV, FLAC, Ogg): played on the entrainment pair as mix_L/R would be, shaped by /mix/* (set /mix/level to hear it; with no /mix/level given it is 1).", valueName: "file"))
    var mix: String?
    @Option(name: .customLong("block-size"), help: "Frames per engine call; does not change the output.")
    var blockSize = 256
    @Flag(help: "No progress display on stderr.")
    var quiet = false

    func validate() throws {
        if let duration {
            guard duration.isFinite, duration > 0, duration <= 7 * 24 * 3600 else {
                throw ValidationError("--duration must be between 0 and 604800 seconds (a week)")
            }
        } else if session.path == nil && mix == nil {
            throw ValidationError("give --duration (or --session or --mix, whose length is used)")
        }
        if let rate, !(8000...384_000).contains(rate) { throw ValidationError("--rate must be 8000–384000 Hz") }
        let container = AudioContainer(path: out)
        if format != nil && !container.takesSampleFormat {
            throw ValidationError("--format does not apply to \(container.label): it codes the float samples (leave --format out)")
        }
        guard (1...65536).contains(blockSize) else { throw ValidationError("--block-size must be 1–65536") }
        if let startTime, Self.parseTime(startTime) == nil {
            throw ValidationError("--start-time must be ISO 8601 with a zone, e.g. 2026-02-02T14:00:00Z, got '\(startTime)'")
        }
    }

    static func parseTime(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return plain.date(from: text) ?? fractional.date(from: text)
    }

    func run() throws {
        let mixInput = try mix.map { path in
            do { return try SoundFileReader(url: URL(fileURLWithPath: path)) } catch { throw ValidationError("--mix: \(error)") }
        }
        let rate = self.rate ?? mixInput?.sampleRate ?? 48000
        if let mixInput, mixInput.sampleRate != rate {
            throw ValidationError("--mix: \(mix!) is at \(mixInput.sampleRate) Hz and the render at \(rate) Hz: give --rate \(mixInput.sampleRate) (the mix input is not resampled)")
        }
        let container = AudioContainer(path: out)
        let format = self.format ?? container.defaultFormat
        if let problem = container.problem(format: format, sampleRate: rate) { throw ValidationError(problem) }
        let program = try session.program(sampleRate: Double(rate))
        var values = try engine.parameterValues(otherFamiliesHandled: true)
        if mixInput != nil, !engine.sets("/mix/level") { values[try Engine.parameterTable.entry(for: "/mix/level").index] = 1 }
        let length = duration ?? program.map { Double($0.frames) / Double(rate) } ?? mixInput.map { Double($0.frames) / Double(rate) } ?? 0
        guard length > 0 else { throw ValidationError("--mix: \(mix ?? "the file") is empty: give --duration") }
        var job = RenderJob(values: program?.initialValues(values) ?? values, duration: length, sampleRate: rate, format: format)
        job.mixInput = mixInput
        job.blockSize = blockSize
        var player: SessionPlayer?
        if let program {
            let sessionPlayer = SessionPlayer(program: program, startFrame: 0)
            job.schedule = { host, frame in try sessionPlayer.send(through: frame, to: host) }
            player = sessionPlayer
        }
        // The ambient engine: started by --ambient-preset, or by a session stage's "ambient" block.
        let (start, settings, plays) = try ambient.start(changes: try engine.ambientChanges())
        let stagesUseAmbient = !(program?.ambientStarts.isEmpty ?? true)
            || (program?.familyChanges.contains { AmbientFamily.owns($0.change.address) } ?? false)
        if plays || stagesUseAmbient {
            let presets = AmbientPresets.standard()
            if let program, let path = session.path {
                do { try presets.check(program.session, file: path) } catch { throw ValidationError("\(error)") }
            }
            let startTime = self.startTime.flatMap(Self.parseTime) ?? Date()
            AmbientRender(state: start.state, settings: settings, sliders: KesshoSliders(start), seed: ambient.seed, start: startTime)
                .attach(to: &job, playsAtStart: plays) { conductor in
                    player?.ambient = AmbientController(conductor: conductor, presets: presets)
                    player?.space = AddressSpace([AmbientFamily(conductor)])
                }
            job.ambientQuality = ambient.reverbQuality
            job.mix = engine.givesEntrainment || session.path != nil ? [.entrainment, .ambient] : [.ambient]
        } else if stems != nil || startTime != nil || ambient.seed != 0 {
            throw ValidationError("--stems, --start-time and --seed need --ambient-preset (or a session with ambient stages)")
        }
        RenderInserts(inserts, changes: try engine.setChanges()).attach(to: &job, player: player)
        job.stemsDirectory = stems.map { URL(fileURLWithPath: $0) }
        RenderSignals.install()
        job.interruption = { RenderSignals.reason }
        let progress = Progress("rendering \(out)", quiet: quiet)
        job.progress = { progress.update($0, of: $1) }
        let result: RenderJob.Result
        do {
            defer { progress.finish() }
            result = try job.run(to: URL(fileURLWithPath: out))
        } catch let stopped as RenderJob.Interrupted {
            StandardError.write("\(stopped); \(out) is as it was\n")
            throw ExitCode(RenderSignals.exitCode)
        }
        if let note = result.note { StandardError.write("note: \(note)\n") }
        let peak = result.peak > 0 ? String(format: "%.2f dBFS", 20 * log10(Double(result.peak))) : "silence"
        let coding = container.takesSampleFormat ? "\(container.label) \(format.label)" : container.label
        print("wrote \(out): \(result.frames) frames, \(String(format: "%.1f", length)) s at \(rate) Hz, \(coding), peak \(peak)")
    }
}
