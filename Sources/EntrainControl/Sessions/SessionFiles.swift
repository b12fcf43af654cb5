import EntrainFiles
import Foundation

/// Any session-like file by its extension (or the format given): .json sessions, .gnaural and
/// .sbg imports.
public enum SessionFiles {
    public enum Format: Sendable { case json, gnaural, sbg }
    /// What SBaGen's NOW means: the local time of day, in seconds.
    static func secondsSinceLocalMidnight() -> Double {
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        return Double(parts.tm_hour * 3600 + parts.tm_min * 60 + parts.tm_sec)
    }

    public static func load(_ url: URL, as given: Format? = nil) throws -> (session: Session, warnings: [SessionProblem]) {
        let format = given ?? (["gnaural": .gnaural, "sbg": .sbg] as [String: Format])[url.pathExtension.lowercased()] ?? .json
        switch format {
        case .gnaural: return try GnauralImporter.load(url)
        case .sbg:
            let text = try SessionLoadError.reading { try DocumentFile.text(url, fallback: .isoLatin1) }
            var (file, warnings) = try SBGParser.parse(text, file: url.path, now: secondsSinceLocalMidnight())
            let session = try SBGTimeline.session(file, name: url.deletingPathExtension().lastPathComponent, warnings: &warnings, path: url.path)
            return (session, warnings)
        case .json: return try SessionDecoder.load(url)
        }
    }
}
