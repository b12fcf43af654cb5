/// One piece of synthesized test material with its exact ground truth.
public struct CorpusItem: Sendable {
    public enum Category: String, CaseIterable, Sendable {
        case steady, tempoChange, swing, noisy, noBeat
        /// Songs with a drum break: the beat goes on under held chords.
        case breaks
        /// A real recording (see `RecordingCorpus`): truth from the music's own tempo data.
        case recording
    }

    public let name: String
    public let category: Category
    public let sampleRate: Int
    /// Mono audio, peak about -6 dBFS (the quiet no-beat items are quieter by design). Items
    /// with drums carry a -80 dBFS white noise floor; 'silence' is digital silence.
    public let samples: [Float]
    /// Seconds; the first sample of every drum hit, hits closer than 30 ms merged into the earliest.
    public let onsets: [Double]
    /// Seconds; every quarter note.
    public let beats: [Double]
    public let summary: String

    public var duration: Double { Double(samples.count) / Double(sampleRate) }

    public init(name: String, category: Category, sampleRate: Int, samples: [Float],
                onsets: [Double], beats: [Double], summary: String) {
        self.name = name
        self.category = category
        self.sampleRate = sampleRate
        self.samples = samples
        self.onsets = onsets
        self.beats = beats
        self.summary = summary
    }
}
