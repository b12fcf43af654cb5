import EntrainEngine
import Foundation

/// Real recordings with exact beat truth, read from a folder: `NAME.wav` beside
/// `NAME.beats.txt` (seconds, one a line). `scripts/build-real-corpus.sh` builds one from
/// Debian-packaged music projects (LMMS, Hydrogen, MIDI) into `.corpus/real`; the audio is
/// never committed. `ENTRAIN_REAL_CORPUS` names another folder.
public enum RecordingCorpus {
    public static let environmentKey = "ENTRAIN_REAL_CORPUS"

    /// The folder tests and tools use by default: `$ENTRAIN_REAL_CORPUS`, else `.corpus/real`
    /// under `root` (the repository).
    public static func defaultDirectory(root: URL) -> URL {
        if let path = ProcessInfo.processInfo.environment[environmentKey], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return root.appendingPathComponent(".corpus/real")
    }

    /// Names of the pieces in `directory` (a WAV with its beat file), sorted.
    public static func names(in directory: URL) throws -> [String] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let beats = Set(files.filter { $0.hasSuffix(".beats.txt") }.map { String($0.dropLast(".beats.txt".count)) })
        return files.filter { $0.hasSuffix(".wav") }.map { String($0.dropLast(4)) }.filter(beats.contains).sorted()
    }

    /// One piece, mixed to mono, as a corpus item (no onset truth: `onsets` is empty).
    public static func item(named name: String, in directory: URL) throws -> CorpusItem {
        let wav = try WAVFile(contentsOf: directory.appendingPathComponent("\(name).wav"))
        let beats = try beats(contentsOf: directory.appendingPathComponent("\(name).beats.txt"))
        return CorpusItem(name: name, category: .recording, sampleRate: wav.sampleRate,
                          samples: BeatAnalysis.mono(wav.samples), onsets: [], beats: beats,
                          summary: "recording \(name)")
    }

    /// A beat file: a time in seconds first on each line (anything after it ignored), blank
    /// lines skipped. The truth's and another tracker's beats (`BeatComparison.other`) alike.
    public static func beats(contentsOf file: URL) throws -> [Double] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var beats: [Double] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let field = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            guard let time = Double(field), time.isFinite else {
                throw RecordingError.badBeatLine(file: file.lastPathComponent, line: number + 1, text: String(line))
            }
            beats.append(time)
        }
        return beats
    }

    /// The WAV file of a piece (aubio reads it as it is).
    public static func file(named name: String, in directory: URL) -> URL {
        directory.appendingPathComponent("\(name).wav")
    }
}

public enum RecordingError: Error, CustomStringConvertible {
    case badBeatLine(file: String, line: Int, text: String)
    public var description: String {
        switch self {
        case .badBeatLine(let file, let line, let text): "\(file):\(line): not a time in seconds: '\(text)'"
        }
    }
}
