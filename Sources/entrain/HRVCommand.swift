import ArgumentParser
import EntrainFiles
import EntrainHRV
import Foundation

/// `entrain hrv …`: heart-rate variability without a running client.
struct HRVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hrv",
        abstract: "Heart-rate variability: replay a series of RR intervals through the biofeedback pipeline.",
        subcommands: [HRVReplay.self])
}

struct HRVReplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run an RR series (one interval in ms per line, or an --hrv-record recording) through the pipeline as fast as it can.",
        discussion: "Updates come once per second of RR time, as live. See docs/hrv.md for every field.")

    @Argument(help: "A text file of RR intervals in ms, one per line, or a recording (.jsonl).")
    var file: String
    @Flag(help: "One JSON object per update (the recording's record format) instead of a table.")
    var jsonl = false
    @Option(help: "default (our fixes for real, noisy data) or reference (the EBS reference engine's numbers).")
    var algorithm = "default"

    func validate() throws {
        guard HRVSettings.Algorithm(rawValue: algorithm) != nil else {
            throw ValidationError("--algorithm must be default or reference, got '\(algorithm)'")
        }
    }

    func run() throws {
        let series: [Double]
        do { series = try RRSeriesFile.parse(try DocumentFile.text(URL(fileURLWithPath: file), label: file), file: file) } catch {
            throw ValidationError("\(error)")
        }
        var pipeline = HRVPipeline(settings: HRVSettings(algorithm: HRVSettings.Algorithm(rawValue: algorithm) ?? .standard))
        var t = 0.0, updates = 0
        var out = ""
        if !jsonl { out += "     t     hr  rmssd   sdnn  pnn50 breath  coher  entr  mode\n" }
        for rr in series {
            t += rr / 1000
            guard let u = pipeline.ingest([rr], at: t) else { continue }
            updates += 1
            out += (jsonl ? HRVRecordFormat.record(u) : Self.row(u)) + "\n"
            if out.utf8.count > 1 << 16 { print(out, terminator: ""); out = "" }
        }
        print(out, terminator: "")
        let summary = "\(series.count) intervals, \(pipeline.rejected) rejected as artifacts, \(updates) updates over \(String(format: "%.1f", t)) s"
        if jsonl { StandardError.write(summary + "\n") } else { print(summary) }
    }

    static func row(_ u: HRVUpdate) -> String {
        String(format: "%6.1f %6.1f %6.1f %6.1f %6.1f %6@ %6.3f %5.2f  %@", u.t, u.heartRate, u.timeDomain.rmssd, u.timeDomain.sdnn,
               u.timeDomain.pnn50, u.metrics.breath.rate.map { String(format: "%.2f", $0) } ?? "-", u.coherence,
               u.metrics.entrainment.value, u.mode.reported.mode)
    }
}
