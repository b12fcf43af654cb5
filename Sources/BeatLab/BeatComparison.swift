import EntrainCore
import EntrainEngine
import Foundation

/// Our beat analysis and aubio side by side on the corpus: F-measures, timing errors and cost,
/// per item and summed up by category, as the README's table.
public enum BeatComparison {
    public struct Row: Sendable {
        public let item: String
        public let category: CorpusItem.Category
        public let onsets: EventScore
        public let beats: BeatScore
        /// Median of (time the event left the engine − true onset), ms; ours only.
        public let medianDelayMs: Double?
        public let cpuSeconds: Double
        /// Lock time and longest silence over the whole item.
        public let lock: LockMetrics
        /// Beat F at the annotated and at the best metrical level.
        public let levels: LevelScore
    }

    /// Ours, at a `period`-frame period with `values` (default: the table's defaults).
    public static func ours(_ item: CorpusItem, values: ParameterValues? = nil, period: Int = 64) throws -> Row {
        let rate = Double(item.sampleRate)
        let start = DispatchTime.now().uptimeNanoseconds
        let events = try BeatAnalysis.analyse(item.samples, sampleRate: rate, values: values, blockSize: period)
        let cpu = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let onsets = events.filter { $0.kind == .onset }, beats = events.filter { $0.kind == .beat }
        let onsetScore = BeatMetrics.evaluateOnsets(reference: item.onsets, estimated: onsets.map { Double($0.frame) / rate })
        let delays = onsets.compactMap { onset -> Double? in
            let t = Double(onset.frame) / rate
            guard let truth = item.onsets.min(by: { abs($0 - t) < abs($1 - t) }), abs(truth - t) <= BeatMetrics.onsetWindow else { return nil }
            return (Double(onset.publishedFrame) / rate - truth) * 1000
        }.sorted()
        return row(item, onsets: onsetScore, beats: beats.map { Double($0.frame) / rate },
                   medianDelayMs: delays.isEmpty ? nil : delays[delays.count / 2], cpuSeconds: cpu)
    }

    /// aubio with its defaults (aubioonset: hfc, 512/256; aubiotrack: specflux, 1024/512) on the
    /// item written as a float WAV in `directory`.
    public static func aubio(_ item: CorpusItem, directory: URL) throws -> Row {
        try aubio(item, file: try item.write(to: directory))
    }

    /// aubio on `file`, the item's audio as it is on disk (a recording: no onset truth, so
    /// its onset score means nothing).
    public static func aubio(_ item: CorpusItem, file: URL) throws -> Row {
        let onsets = try AubioRunner.onsets(file: file), beats = try AubioRunner.beats(file: file)
        return row(item, onsets: BeatMetrics.evaluateOnsets(reference: item.onsets, estimated: onsets.times),
                   beats: beats.times, cpuSeconds: onsets.cpuSeconds + beats.cpuSeconds)
    }

    /// A tracker's beat times scored against the item's: F, continuity, lock and metrical levels.
    static func row(_ item: CorpusItem, onsets: EventScore, beats: [Double], medianDelayMs: Double? = nil,
                    cpuSeconds: Double) -> Row {
        Row(item: item.name, category: item.category, onsets: onsets,
            beats: BeatMetrics.evaluateBeats(reference: item.beats, estimated: beats),
            medianDelayMs: medianDelayMs, cpuSeconds: cpuSeconds,
            lock: LockMetrics.measure(reference: item.beats, estimated: beats),
            levels: BeatMetrics.levelScore(reference: item.beats, estimated: beats))
    }

    /// A Markdown table: one line per item, ours then aubio's figures.
    public static func table(ours: [Row], aubio: [Row]?) -> String {
        var lines = ["| item | onset F ours | onset F aubio | beat F ours | beat F aubio | beat CMLt ours / aubio | beats ours / aubio / truth | median stamp error ours / aubio (ms) |",
                     "|---|---|---|---|---|---|---|---|"]
        for (i, row) in ours.enumerated() {
            let other = aubio?[i]
            func f(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "—" }
            func ms(_ x: Double?) -> String { x.map { String(format: "%+.1f", $0) } ?? "—" }
            lines.append("| \(row.item) | \(f(row.onsets.f)) | \(f(other?.onsets.f)) | \(f(row.beats.events.f)) | \(f(other?.beats.events.f)) | "
                + "\(f(row.beats.continuity.cmlt)) / \(f(other?.beats.continuity.cmlt)) | "
                + "\(row.beats.events.estimatedCount) / \(other.map { "\($0.beats.events.estimatedCount)" } ?? "—") / \(row.beats.events.referenceCount) | "
                + "\(ms(row.onsets.medianErrorMs)) / \(ms(other?.onsets.medianErrorMs)) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The songs' table: beat scores, timing, lock time and the longest silence, ours then aubio's.
    public static func songTable(ours: [Row], aubio: [Row]?) -> String {
        var lines = ["| song | beat F ours | beat F aubio | CMLt ours / aubio | AMLt ours / aubio | beat offset (ms) ours / aubio | lock (s) ours / aubio | longest gap (s) ours / aubio |",
                     "|---|---|---|---|---|---|---|---|"]
        for (i, row) in ours.enumerated() {
            let other = aubio?[i]
            func f(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "—" }
            func s(_ x: Double?) -> String { x.map { String(format: "%.1f", $0) } ?? "never" }
            func ms(_ x: Double?) -> String { x.map { String(format: "%.1f", $0) } ?? "—" }
            lines.append("| \(row.item) | \(f(row.beats.events.f)) | \(f(other?.beats.events.f)) | "
                + "\(f(row.beats.continuity.cmlt)) / \(f(other?.beats.continuity.cmlt)) | \(f(row.beats.continuity.amlt)) / \(f(other?.beats.continuity.amlt)) | "
                + "\(ms(row.beats.events.meanAbsoluteErrorMs)) / \(ms(other?.beats.events.meanAbsoluteErrorMs)) | "
                + "\(s(row.lock.lockSeconds)) / \(other.map { s($0.lock.lockSeconds) } ?? "—") | "
                + "\(s(row.lock.longestGapSeconds)) / \(other.map { s($0.lock.longestGapSeconds) } ?? "—") |")
        }
        return lines.joined(separator: "\n")
    }

    /// The recordings' table: F at the annotated and the best metrical level, continuity, lock
    /// and the longest gap, ours then the other tracker's (aubio's, or `name`'s).
    public static func recordingTable(ours: [Row], other others: [Row]?, name: String = "aubio") -> String {
        let columns = ["F", "best-level F", "CMLt", "AMLt", "lock (s)", "longest gap (s)"].map { "\($0) ours / \(name)" }
        var lines = ["| piece | " + columns.joined(separator: " | ") + " |", "|---|---|---|---|---|---|---|"]
        func f(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "—" }
        func s(_ x: Double?) -> String { x.map { String(format: "%.1f", $0) } ?? "never" }
        for (i, row) in ours.enumerated() {
            let other = others?[i]
            lines.append("| \(row.item) | \(f(row.levels.annotated)) / \(f(other?.levels.annotated)) | "
                + "\(f(row.levels.best)) / \(f(other?.levels.best)) | "
                + "\(f(row.beats.continuity.cmlt)) / \(f(other?.beats.continuity.cmlt)) | \(f(row.beats.continuity.amlt)) / \(f(other?.beats.continuity.amlt)) | "
                + "\(s(row.lock.lockSeconds)) / \(other.map { s($0.lock.lockSeconds) } ?? "—") | "
                + "\(s(row.lock.longestGapSeconds)) / \(other.map { s($0.lock.longestGapSeconds) } ?? "—") |")
        }
        func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }
        func means(_ rows: [Row]) -> [Double] {
            [mean(rows.map(\.levels.annotated)), mean(rows.map(\.levels.best)), mean(rows.map(\.beats.continuity.cmlt)),
             mean(rows.map(\.beats.continuity.amlt))]
        }
        let m = means(ours), a = others.map(means)
        lines.append("| **mean** | \(f(m[0])) / \(f(a?[0])) | \(f(m[1])) / \(f(a?[1])) | \(f(m[2])) / \(f(a?[2])) | \(f(m[3])) / \(f(a?[3])) | "
            + "\(s(mean(ours.compactMap(\.lock.lockSeconds)))) / \(a == nil ? "—" : s(mean(others!.compactMap(\.lock.lockSeconds)))) | "
            + "\(s(ours.map(\.lock.longestGapSeconds).max())) / \(a == nil ? "—" : s(others!.map(\.lock.longestGapSeconds).max())) |")
        return lines.joined(separator: "\n")
    }
}
