import EntrainEngine
import EntrainFiles
import Foundation

extension BeatCorpus {
    /// Writes every item (or the named ones) as `<name>.wav` (mono) with `<name>.onsets.txt` and
    /// `<name>.beats.txt` beside it, one time in seconds per line with 6 decimals (1 µs,
    /// finer than a sample). Returns the WAV files written.
    @discardableResult
    public static func write(to directory: URL, names: [String]? = nil, sampleRate: Int = defaultSampleRate,
                             format: WAVWriter.Format = .float32) throws -> [URL] {
        try Folder.create(directory)
        var written: [URL] = []
        for name in names ?? self.names {
            guard let item = item(named: name, sampleRate: sampleRate) else { throw CorpusError.unknownItem(name) }
            written.append(try item.write(to: directory, format: format))
        }
        return written
    }
}

extension CorpusItem {
    /// Writes `<name>.wav`, `<name>.onsets.txt` and `<name>.beats.txt` into `directory`.
    @discardableResult
    public func write(to directory: URL, format: WAVWriter.Format = .float32) throws -> URL {
        let wav = directory.appendingPathComponent("\(name).wav")
        let writer = try WAVWriter(url: wav, format: format, channels: 1, sampleRate: sampleRate)
        try samples.withUnsafeBufferPointer { try writer.write([$0]) }
        try writer.finish()
        try Self.timesText(onsets).write(to: directory.appendingPathComponent("\(name).onsets.txt"), atomically: true, encoding: .utf8)
        try Self.timesText(beats).write(to: directory.appendingPathComponent("\(name).beats.txt"), atomically: true, encoding: .utf8)
        return wav
    }

    static func timesText(_ times: [Double]) -> String {
        times.map { String(format: "%.6f\n", $0) }.joined()
    }
}

public enum CorpusError: Error, CustomStringConvertible {
    case unknownItem(String)
    case unknownSong(String)
    public var description: String {
        switch self {
        case .unknownSong(let name): "no song named '\(name)' (known: \((SongCorpus.names + SongCorpus.variantNames).joined(separator: ", ")))"
        case .unknownItem(let name): "no corpus item named '\(name)' (known: \(BeatCorpus.names.joined(separator: ", ")))"
        }
    }
}
