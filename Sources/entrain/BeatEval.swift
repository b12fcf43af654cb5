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
        abstract: "Score the beat analysis on the built-in corpora or on recordings (exact ground truth), optionally against aubio.",
        discussion: """
        Onsets: F-measure at ±50 ms. Beats: F-measure at ±70 ms after the first 5 s (mir_eval conventions), \
        at the annotated and at the best metrical level (annotated, double, half), CMLt/AMLt at 17.5 %. \
        --corpus DIR scores real recordings: NAME.wav beside NAME.beats.txt (scripts/build-real-corpus.sh makes them); \
        --other-beats scores another tracker's beats on them (scripts/compare-madmom.sh: madmom's online tracker).
        """)

    @Flag(help: "Also run aubioonset and aubiotrack (Debian aubio-tools) on the same files.")
    var aubio = false
    @Flag(help: "Score the sampled-instrument songs (MIDI rendered by fluidsynth with the GM soundfont) instead of the synthesized corpus.")
    var songs = false
    @Option(help: "Only these items (comma-separated names).")
    var items: String?
    @Option(help: "JACK period for our analysis, frames (events leave the engine at the end of a period).")
    var period = 64
    @Option(help: "Score the recordings in this folder (NAME.wav with NAME.beats.txt) instead of a built-in corpus.")
    var corpus: String?
    @Option(help: ArgumentHelp("With --corpus: also score another tracker's beats, DIR/NAME.beats.txt (seconds, one a line), as aubio's are.",
                               valueName: "dir"))
    var otherBeats: String?
    @Option(help: "The other tracker's name in the table.")
    var otherName = "other"
    @Option(help: "Keep the built-in corpus here: NAME.wav with NAME.onsets.txt and NAME.beats.txt (default: a temporary folder, for aubio only).")
    var keep: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("Set a beat parameter by its OSC address.", valueName: "address=value"))
    var assignments: [String] = []
    @Flag(help: "No progress display on stderr.")
    var quiet = false

    func run() throws {
        let values = try EngineOptions.parse(assignments.flatMap { ["--set", $0] }).parameterValues()
        if otherBeats != nil && corpus == nil { throw ValidationError("--other-beats scores recordings: give --corpus too") }
        if let corpus { return try scoreRecordings(in: URL(fileURLWithPath: corpus), values: values) }
        let names = items.map { $0.split(separator: ",").map(String.init) } ?? (songs ? SongCorpus.names : BeatCorpus.names)
        if songs && !SongRenderer.isAvailable { throw ValidationError("fluidsynth or the GM soundfont is missing (scripts/install-deps.sh installs them)") }
        if aubio && !AubioRunner.isAvailable { throw ValidationError("aubio-tools is not installed (scripts/install-deps.sh aubio-tools)") }
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("entrain-beat-corpus-\(getpid())")
        try Folder.create(directory)
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
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
            if keep != nil && !aubio { try item.write(to: directory) }  // aubio's run writes it too
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

    /// The recordings in `directory`, ours (and aubio's) per piece and on average.
    func scoreRecordings(in directory: URL, values: ParameterValues?) throws {
        if aubio && !AubioRunner.isAvailable { throw ValidationError("aubio-tools is not installed (scripts/install-deps.sh aubio-tools)") }
        let available: [String]
        do { available = try RecordingCorpus.names(in: directory) } catch {
            throw ValidationError("cannot read the corpus folder \(directory.path): \(error.localizedDescription)")
        }
        let names = items.map { $0.split(separator: ",").map(String.init) } ?? available
        if let missing = names.first(where: { !available.contains($0) }) { throw ValidationError("no recording '\(missing)' (WAV and .beats.txt) in \(directory.path)") }
        guard !names.isEmpty else { throw ValidationError("no recordings (NAME.wav with NAME.beats.txt) in \(directory.path); scripts/build-real-corpus.sh makes them") }
        let otherDirectory = otherBeats.map { URL(fileURLWithPath: $0) }
        if let otherDirectory, let missing = names.first(where: {
            !FileManager.default.fileExists(atPath: BeatComparison.otherBeatsFile(named: $0, in: otherDirectory).path)
        }) {
            throw ValidationError("no \(missing).beats.txt in \(otherDirectory.path) (--other-beats)")
        }
        var ours: [BeatComparison.Row] = [], theirs: [BeatComparison.Row] = [], other: [BeatComparison.Row] = []
        let progress = Progress("scoring the recordings", quiet: quiet)
        defer { progress.finish() }
        for (index, name) in names.enumerated() {
            defer { progress.update(index + 1, of: names.count) }
            let item = try RecordingCorpus.item(named: name, in: directory)
            ours.append(try BeatComparison.ours(item, values: values, period: period))
            if aubio { theirs.append(try BeatComparison.aubio(item, file: RecordingCorpus.file(named: name, in: directory))) }
            if let otherDirectory { other.append(try BeatComparison.other(item, beatsIn: otherDirectory)) }
        }
        progress.finish()
        // aubio ran here and was timed; the other tracker ran elsewhere.
        let comparisons = (aubio ? [(label: "aubio", rows: theirs, timed: true)] : [])
            + (otherDirectory == nil ? [] : [(label: otherName, rows: other, timed: false)])
        for c in comparisons { print(BeatComparison.recordingTable(ours: ours, other: c.rows, name: c.label) + "\n") }
        if comparisons.isEmpty { print(BeatComparison.recordingTable(ours: ours, other: nil) + "\n") }
        print(recordingSummary(ours, label: "ours"))
        for c in comparisons {
            print(recordingSummary(c.rows, label: c.label, cpu: c.timed))
            let ahead = zip(ours, c.rows).filter { $0.levels.best > $1.levels.best }.count
            print("ours ahead of \(c.label) on best-level F: \(ahead) of \(ours.count) pieces")
        }
    }

    /// `cpu`: false for a tracker that ran elsewhere (its rows carry no CPU time).
    func recordingSummary(_ rows: [BeatComparison.Row], label: String, cpu: Bool = true) -> String {
        func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }
        let locks = rows.compactMap(\.lock.lockSeconds)
        return String(format: "%@: best-level F %.3f mean (min %.3f), F %.3f, AMLt %.3f mean (min %.3f), CMLt %.3f, lock %.1f s mean (%d of %d locked, %d within 3 s), longest gap %.1f s",
                      label, mean(rows.map(\.levels.best)), rows.map(\.levels.best).min() ?? 0, mean(rows.map(\.levels.annotated)),
                      mean(rows.map(\.beats.continuity.amlt)), rows.map(\.beats.continuity.amlt).min() ?? 0,
                      mean(rows.map(\.beats.continuity.cmlt)), mean(locks), locks.count, rows.count, locks.filter { $0 <= 3 }.count,
                      rows.map(\.lock.longestGapSeconds).max() ?? 0)
            + (cpu ? String(format: ", CPU %.2f s", rows.reduce(0) { $0 + $1.cpuSeconds }) : "")
    }
}
