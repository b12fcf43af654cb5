/// A pattern laid out on a tempo map, every event quantised to a sample so the audio and the
/// ground truth agree exactly (an event's time is sampleIndex / sampleRate).
struct Score {
    struct Hit {
        var sample: Int
        var voice: DrumVoice
        var velocity: Float
    }

    var hits: [Hit] = []
    /// Sample of every quarter note.
    var beats: [Int] = []

    /// Hits and beats at times up to `endTime` seconds. Velocities vary by up to ±8 %.
    init(pattern: DrumPattern, tempo: TempoMap, endTime: Double, sampleRate: Int, random: inout CorpusRandom) {
        func sample(_ beat: Double) -> Int { Int((tempo.time(ofBeat: beat) * Double(sampleRate)).rounded()) }
        let last = Int((endTime * Double(sampleRate)).rounded(.down))
        var bar = 0
        while sample(Double(bar * 4)) <= last {
            for note in pattern.notes {
                let s = sample(Double(bar * 4) + note.position)
                guard s <= last else { break }
                hits.append(Hit(sample: s, voice: note.voice, velocity: note.velocity * (1 + 0.08 * random.bipolar())))
            }
            bar += 1
        }
        var beat = 0
        while sample(Double(beat)) <= last {
            beats.append(sample(Double(beat)))
            beat += 1
        }
    }

    /// Onset samples: every hit, hits closer than 30 ms to the previous onset merged into it
    /// (the earliest wins), as onset annotations conventionally are.
    func onsetSamples(sampleRate: Int) -> [Int] {
        var onsets: [Int] = []
        for s in hits.map(\.sample).sorted() {
            if let previous = onsets.last, Double(s - previous) < 0.030 * Double(sampleRate) { continue }
            onsets.append(s)
        }
        return onsets
    }

    func render(count: Int, sampleRate: Int, random: inout CorpusRandom) -> [Float] {
        var buffer = [Float](repeating: 0, count: count)
        for hit in hits {
            hit.voice.render(into: &buffer, at: hit.sample, velocity: hit.velocity, sampleRate: sampleRate, random: &random)
        }
        return buffer
    }
}
