import ArgumentParser
import EntrainCore
import EntrainEngine
import Foundation

/// `entrain analyse FILE.wav`: the beat analysis of beat_in, offline, on a file.
struct Analyse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find onsets, beats and tempo in a WAV file with the same analysis beat_in gets live.",
        discussion: """
        Prints one line per event: `onset TIME STRENGTH` or `beat TIME COUNT BPM CONFIDENCE` (times in
        seconds from the start of the file). With --onsets or --beats, only those times, one per line
        (as aubioonset/aubiotrack print them). Multi-channel files are mixed to mono.
        """)

    @Argument(help: "A WAV file (PCM 16/24/32-bit or float).")
    var file: String
    @Flag(help: "Print only onset times.")
    var onsets = false
    @Flag(help: "Print only beat times.")
    var beats = false
    @Option(name: .customLong("set"), help: ArgumentHelp("Set a beat parameter by its OSC address, e.g. --set /beat/method=energy.", valueName: "address=value"))
    var assignments: [String] = []

    func run() throws {
        let values = try EngineOptions.parse(assignments.flatMap { ["--set", $0] }).parameterValues()
        let wav: WAVFile
        do {
            guard FileManager.default.isReadableFile(atPath: file) else { throw AnalyseError.unreadable }
            wav = try WAVFile(contentsOf: URL(fileURLWithPath: file))
        } catch {
            StandardError.write("entrain analyse: \(file): \(error)\n")
            throw ExitCode(1)
        }
        let rate = Double(wav.sampleRate)
        let clock = ContinuousClock.now
        let events = try BeatAnalysis.analyse(BeatAnalysis.mono(wav.samples), sampleRate: rate, values: values)
        let elapsed = ContinuousClock.now - clock
        var lines: [String] = []
        for event in events {
            let time = String(format: "%.6f", Double(event.frame) / rate)
            switch event.kind {
            case .onset where !beats:
                lines.append(onsets ? time : "onset \(time) \(String(format: "%.3f", event.strength))")
            case .beat where !onsets:
                lines.append(beats ? time : "beat \(time) \(event.count) \(String(format: "%.2f", event.bpm)) \(String(format: "%.2f", event.strength))")
            default: break
            }
        }
        print(lines.joined(separator: "\n"))
        let seconds = Double(wav.samples.first?.count ?? 0) / rate
        let onsetCount = events.filter { $0.kind == .onset }.count, beatEvents = events.filter { $0.kind == .beat }
        let taken = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        FileHandle.standardError.write(Data("""
            \(file): \(onsetCount) onsets, \(beatEvents.count) beats\(beatEvents.last.map { String(format: ", last tempo %.1f BPM", $0.bpm) } ?? ""); \
            \(String(format: "%.1f s of audio in %.3f s (%.0f× real time)", seconds, taken, seconds / max(taken, 1e-9)))

            """.utf8))
    }
}

enum AnalyseError: Error, CustomStringConvertible {
    case unreadable
    var description: String { "no such file, or not readable" }
}
