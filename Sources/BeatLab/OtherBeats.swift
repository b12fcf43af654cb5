import Foundation

extension BeatComparison {
    /// Another tracker's beats for `item`, written beforehand to `directory/NAME.beats.txt` (a
    /// time in seconds a line) and scored as aubio's are. No onsets and no CPU time: the tracker
    /// ran elsewhere (scripts/compare-madmom.sh runs madmom's online tracker so).
    public static func other(_ item: CorpusItem, beatsIn directory: URL) throws -> Row {
        row(item, onsets: BeatMetrics.evaluateOnsets(reference: item.onsets, estimated: []),
            beats: try RecordingCorpus.beats(contentsOf: otherBeatsFile(named: item.name, in: directory)), cpuSeconds: 0)
    }

    /// Where `other` reads a piece's beats.
    public static func otherBeatsFile(named name: String, in directory: URL) -> URL {
        directory.appendingPathComponent("\(name).beats.txt")
    }
}
