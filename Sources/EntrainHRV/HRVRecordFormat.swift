import Foundation

/// The recording's lines (JSON Lines): a header, then one record per update. The record keeps
/// the capture spec's `ts`, `hr`, `rr`, `metrics` and `phase` blocks (with the reference's
/// field names), and adds flat fields for the standard measures. `rr` holds the beats received
/// since the previous record, so a recording replays beat for beat.
public enum HRVRecordFormat {
    public static let schemaVersion = "entrain-hrv-1"

    public static func header(algorithm: HRVSettings.Algorithm, date: Date = Date(), note: String? = nil) -> String {
        var line = JSONLine()
        line.text("type", "session_start")
        line.text("ts", timestamp(date))
        line.text("schema_version", schemaVersion)
        line.text("source", "entrain")
        line.text("algorithm", algorithm.rawValue)
        if let note { line.text("note", note) }
        return line.text
    }

    /// One update as one line (no newline). `date`: the wall time of a live record (nil in a replay).
    public static func record(_ u: HRVUpdate, date: Date? = nil) -> String {
        var line = JSONLine()
        line.number("t", u.t, 3)
        if let date { line.text("ts", timestamp(date)) }
        line.numbers("rr", u.newBeats, 1)
        line.number("hr", u.heartRate, 2)
        line.number("mean_rr", u.timeDomain.meanRR, 2)
        line.number("rmssd", u.timeDomain.rmssd, 3)
        line.number("sdnn", u.timeDomain.sdnn, 3)
        line.number("pnn50", u.timeDomain.pnn50, 3)
        line.number("breath_rate", u.metrics.breath.rate, 3)
        line.number("coherence", u.spectral?.coherence, 4)
        line.number("coherence_ratio", u.spectral?.ratio, 3)
        line.number("peak_hz", u.spectral?.peakFrequency, 4)
        line.number("entrainment", u.metrics.entrainment.value, 4)
        line.text("mode", u.mode.reported.mode)
        line.number("membership", u.mode.membership, 4)
        line.number("window_beats", Double(u.timeDomain.count), 0)
        line.number("artifacts", Double(u.rejected), 0)
        line.text("algorithm", u.algorithm.rawValue)
        line.object("metrics", metrics(u))
        line.object("phase", phase(u))
        return line.text
    }

    static func metrics(_ u: HRVUpdate) -> JSONLine {
        let m = u.metrics
        var line = JSONLine()
        line.number("amp", m.amplitude, 1)
        line.number("ent", m.entrainment.value, 3)
        line.text("ent_label", m.entrainment.label)
        line.number("phase_coupling", m.entrainment.coupling, 3)
        line.number("breath", m.breath.rate, 1)
        line.bool("breath_steady", m.breath.steady)
        line.number("volatility", m.volatility, 4)
        line.text("mode", m.calmLabel)
        line.number("mode_score", m.calm, 3)
        return line
    }

    static func phase(_ u: HRVUpdate) -> JSONLine {
        let p = u.phase, mode = u.mode
        var line = JSONLine()
        line.numbers("position", p.position, 4)
        line.numbers("velocity", p.velocity, 4)
        line.number("velocity_mag", p.speed, 4)
        line.number("curvature", p.curvature, 4)
        line.number("stability", p.stability, 4)
        line.number("history_signature", p.historySignature, 4)
        line.number("coherence", p.coherence, 4)
        line.text("phase_label", p.label)
        line.text("movement_annotation", mode.annotation)
        line.text("movement_aware_label", mode.movementLabel)
        line.text("mode_status", mode.reported.status.rawValue)
        line.number("dwell_time", mode.reported.dwell, 2)
        line.number("acceleration_mag", mode.calmAcceleration, 4)
        line.object("soft_mode", soft(mode.soft, top: 3))
        line.object("soft_mode_2d", soft(mode.twoAxis, top: mode.twoAxis.labels.count))
        return line
    }

    static func soft(_ s: SoftMode, top: Int) -> JSONLine {
        var line = JSONLine()
        line.text("primary", s.primaryLabel)
        line.text("secondary", s.secondaryLabel)
        line.number("ambiguity", s.ambiguity, 4)
        line.number("entropy", s.entropy, 4)
        line.number("distribution_shift", s.shift, 6)
        var members = JSONLine()
        for i in s.membership.indices.sorted(by: { s.membership[$0] > s.membership[$1] }).prefix(top) {
            members.number(s.labels[i], s.membership[i], 4)
        }
        line.object("membership", members)
        return line
    }

    static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}
