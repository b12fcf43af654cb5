import ArgumentParser
import BeatLab
import EntrainCore
import EntrainEngine
import EntrainFiles
import Foundation

/// `entrain beat-eval`: the beat analysis measured on the synthesized corpus, optionally side
/// by side with aubio (`make beat-compare` installs aubio-tools and runs this with --aubio).
struct BeatEval: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beat-eval",
        abstract: "Score the beat analysis on the built-in corpus (exact ground truth), optionally against aubio.",
        discussion: "Onsets: F-measure at ±50 ms. Beats: F-measure at ±70 ms after the first 5 s (mir_eval conventions).")

    @Flag(help: "Also run aubioonset and aubiotrack (Debian aubio-tools) on the same files.")
    var aubio = false
    @Flag(help: "Score the sampled-instrument songs (MIDI rendered by fluidsynth with the GM soundfont) instead of the synthesized corpus.")
    var songs = false
    @Option(help: "Only these items (comma-separated names).")
    var items: String?
    @Option(help: "JACK period for our analysis, frames (events leave the engine at the end of a period).")
    var period = 64
    @Option(help: "Keep the corpus here: NAME.wav with NAME.onsets.txt and NAME.beats.txt (default: a temporary folder, for aubio only).")
    var corpus: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("Set a beat parameter by its OSC address.", valueName: "address=value"))
    var assignments: [String] = []
    @Flag(help: "No progress display on stderr.")
    var quiet = false

    func run() throws {
        let values = try EngineOptions.parse(assignments.flatMap { ["--set", $0] }).parameterValues()
        let names = items.map { $0.split(separator: ",").map(String.init) } ?? (songs ? SongCorpus.names : BeatCorpus.names)
        if songs && !SongRenderer.isAvailable { throw ValidationError("fluidsynth or the GM soundfont is missing (scripts/install-deps.sh installs them)") }
        if aubio && !AubioRunner.isAvailable { throw ValidationError("aubio-tools is not installed (scripts/install-deps.sh aubio-tools)") }
        let directory = corpus.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("entrain-beat-corpus-\(getpid())")
        try Folder.create(directory)
        defer { if corpus == nil { try? FileManager.default.removeItem(at: directory) } }
        var ours: [BeatComparison.Row] = [], theirs: [BeatComparison.Row] = []
        let progress = Progress("scoring the corpus", quiet: quiet)
        defer { progress.finish() }
        for (index, name) in names.enumerated() {
            defer { progress.update(index + 1, of: names.count) }
            let item: CorpusItem
            if songs {
                item = try SongCorpus.item(named: name)
            } else {
                guard let synthesized = BeatCorpus.item(named: name) else { throw ValidationError("no corpus item '\(name)' (have: \(BeatCorpus.names.joined(separator: ", ")))") }
                item = synthesized
            }
            ours.append(try BeatComparison.ours(item, values: values, period: period))
            if corpus != nil && !aubio { try item.write(to: directory) }  // aubio's run writes it too
            if aubio { theirs.append(try BeatComparison.aubio(item, directory: directory)) }
        }
        progress.finish()
        print(songs ? BeatComparison.songTable(ours: ours, aubio: aubio ? theirs : nil) : BeatComparison.table(ours: ours, aubio: aubio ? theirs : nil))
        print()
        print(summary(ours, label: "ours"))
        if aubio { print(summary(theirs, label: "aubio")) }
    }

    func summary(_ rows: [BeatComparison.Row], label: String) -> String {
        func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }
        let music = rows.filter { $0.category != .noBeat }, steady = rows.filter { $0.category == .steady || $0.category == .swing }
        let falseBeats = rows.filter { $0.category == .noBeat }.reduce(0) { $0 + $1.beats.events.estimatedCount }
        let delays = rows.compactMap(\.medianDelayMs)
        var text = String(format: "%@: mean onset F %.3f, mean beat F %.3f (steady %.3f), beats on no-beat material %d, CPU %.2f s",
                          label, mean(music.map(\.onsets.f)), mean(music.map(\.beats.events.f)), mean(steady.map(\.beats.events.f)),
                          falseBeats, rows.reduce(0) { $0 + $1.cpuSeconds })
        let locks = music.compactMap(\.lock.lockSeconds)
        text += String(format: ", lock %.1f s mean (%d of %d locked), longest gap %.1f s", mean(locks), locks.count, music.count,
                       music.map(\.lock.longestGapSeconds).max() ?? 0)
        if !delays.isEmpty { text += String(format: ", median detection delay %.1f ms at a %d-frame period", mean(delays), period) }
        return text
    }
}
