import Foundation

/// The synthesized evaluation corpus: drum and click material with exact onset and beat truth,
/// plus material with no beat at all. Deterministic: each item is seeded from its name, so the
/// same name and sample rate always give the same samples.
public enum BeatCorpus {
    public static let defaultSampleRate = 48_000

    /// Every item name, in corpus order.
    public static var names: [String] { specs.map(\.name) }

    /// One item, rendered on demand (rendering the whole corpus takes a while in debug builds).
    public static func item(named name: String, sampleRate: Int = defaultSampleRate) -> CorpusItem? {
        specs.first { $0.name == name }?.render(sampleRate)
    }

    public static func items(sampleRate: Int = defaultSampleRate) -> [CorpusItem] {
        specs.map { $0.render(sampleRate) }
    }

    // MARK: the items

    struct Spec {
        var name: String
        var render: (Int) -> CorpusItem
    }

    /// Music starts half a second in, so the first onset has silence before it.
    static let leadIn = 0.5

    static let specs: [Spec] = {
        var specs: [Spec] = [70, 100, 128, 160, 180].map { (bpm: Double) in
            drums(name: String(format: "click-%03d", Int(bpm)), .steady, .click, .steady(bpm, firstBeat: leadIn),
                  summary: "click track at \(Int(bpm)) BPM, 2 kHz accent on the downbeat, 1 kHz on beats 2-4")
        }
        specs += [
            drums(name: "rock-090", .steady, .rock, .steady(90, firstBeat: leadIn),
                  summary: "rock backbeat at 90 BPM: kick 1 & 3, snare 2 & 4, eighth hats"),
            drums(name: "rock-120", .steady, .rock, .steady(120, firstBeat: leadIn),
                  summary: "rock backbeat at 120 BPM: kick 1 & 3, snare 2 & 4, eighth hats"),
            drums(name: "house-124", .steady, .house, .steady(124, firstBeat: leadIn),
                  summary: "four-on-the-floor house at 124 BPM: kick every beat, snare 2 & 4, open hats on the off-beats"),
            drums(name: "hiphop-075", .steady, .hipHop, .steady(75, firstBeat: leadIn),
                  summary: "hip-hop at 75 BPM: sixteenth hats, snare 2 & 4, syncopated kick"),
            drums(name: "fast-174", .steady, .rock, .steady(174, firstBeat: leadIn),
                  summary: "fast at 174 BPM: kick 1 & 3, snare 2 & 4, eighth hats"),
            drums(name: "fast-180", .steady, .fourKick, .steady(180, firstBeat: leadIn),
                  summary: "fast at 180 BPM: kick every beat, snare 2 & 4, eighth hats"),
            drums(name: "shuffle-100", .swing, .shuffle, .steady(100, firstBeat: leadIn),
                  summary: "shuffle at 100 BPM: hats on swung eighths (2:1), kick 1, 3 and the swung 'and' of 2"),
            // First beat at 0.8 s puts beat 32, a downbeat, at exactly 20 s.
            drums(name: "jump-100-130", .tempoChange, .rock, .jump(from: 100, to: 130, atBeat: 32, firstBeat: 0.8),
                  duration: 40, summary: "rock pattern at 100 BPM jumping to 130 BPM on the downbeat at 20.0 s"),
            drums(name: "ramp-090-120", .tempoChange, .rock, .ramp(from: 90, to: 120, over: 30, firstBeat: leadIn),
                  duration: 31, summary: "rock pattern with the tempo rising linearly in time from 90 to 120 BPM over 30 s from 0.5 s"),
            drums(name: "noisy-rock-120", .noisy, .rock, .steady(120, firstBeat: leadIn), noisy: true,
                  summary: "rock 120 BPM with pink noise 18 dB below the drums (RMS) and pad chords 12 dB below, "
                      + "changing every 2 bars on the downbeat with a 300 ms attack (pad attacks are not onsets)"),
        ]
        specs += noBeatSpecs
        return specs
    }()

    static let noBeatSpecs: [Spec] = [
        quiet(name: "silence", seconds: 20, summary: "digital silence") { _, _, _ in },
        quiet(name: "white-noise-75dbfs", seconds: 20, summary: "white noise at -75 dBFS RMS") { audio, _, random in
            audio = BackgroundSounds.white(count: audio.count, random: &random)
            BackgroundSounds.setRMS(&audio, to: decibels(-75))
        },
        quiet(name: "pink-noise-20dbfs", seconds: 30, summary: "pink noise at -20 dBFS RMS") { audio, _, random in
            audio = BackgroundSounds.pink(count: audio.count, random: &random)
            BackgroundSounds.setRMS(&audio, to: decibels(-20))
        },
        quiet(name: "pads-only", seconds: 30, summary: "pad chords alone, a change every 5 s with a 300 ms attack, peak -6 dBFS") { audio, sampleRate, _ in
            let starts = stride(from: leadIn, to: 30, by: 5).map { Int(($0 * Double(sampleRate)).rounded()) }
            audio = PadSynth.render(count: audio.count, chordStarts: starts, sampleRate: sampleRate)
            normalisePeak(&audio)
        },
    ]

    // MARK: building blocks

    static func drums(name: String, _ category: CorpusItem.Category, _ pattern: DrumPattern, _ tempo: TempoMap,
                      duration: Double = 30, noisy: Bool = false, summary: String) -> Spec {
        Spec(name: name) { sampleRate in
            var random = CorpusRandom(name: name)
            let count = Int(duration * Double(sampleRate))
            // The last hit keeps 300 ms of audio, the length of the longest voice.
            let score = Score(pattern: pattern, tempo: tempo, endTime: duration - 0.3, sampleRate: sampleRate, random: &random)
            var audio = score.render(count: count, sampleRate: sampleRate, random: &random)
            if noisy { addNoiseAndPads(&audio, chordStarts: stride(from: 0, to: score.beats.count, by: 8).map { score.beats[$0] },
                                       sampleRate: sampleRate, random: &random) }
            normalisePeak(&audio)
            addNoiseFloor(&audio, random: &random)
            let rate = Double(sampleRate)
            return CorpusItem(name: name, category: category, sampleRate: sampleRate, samples: audio,
                              onsets: score.onsetSamples(sampleRate: sampleRate).map { Double($0) / rate },
                              beats: score.beats.map { Double($0) / rate }, summary: summary)
        }
    }

    static func addNoiseAndPads(_ audio: inout [Float], chordStarts: [Int], sampleRate: Int, random: inout CorpusRandom) {
        let drumsRMS = BackgroundSounds.rms(audio)
        var noise = BackgroundSounds.pink(count: audio.count, random: &random)
        BackgroundSounds.setRMS(&noise, to: drumsRMS * decibels(-18))
        var pads = PadSynth.render(count: audio.count, chordStarts: chordStarts, sampleRate: sampleRate)
        BackgroundSounds.setRMS(&pads, to: drumsRMS * decibels(-12))
        for i in audio.indices { audio[i] += noise[i] + pads[i] }
    }

    /// White noise at -80 dBFS RMS under the music, as any recording has: no frame is digitally
    /// silent. (aubio's tracker, for one, never reports a beat in a frame below its silence gate,
    /// so on clicks over digital silence it drops every beat it predicts a little early.)
    static func addNoiseFloor(_ audio: inout [Float], random: inout CorpusRandom) {
        var floor = BackgroundSounds.white(count: audio.count, random: &random)
        BackgroundSounds.setRMS(&floor, to: decibels(-80))
        for i in audio.indices { audio[i] += floor[i] }
    }

    static func quiet(name: String, seconds: Double, summary: String,
                      fill: @escaping (inout [Float], Int, inout CorpusRandom) -> Void) -> Spec {
        Spec(name: name) { sampleRate in
            var random = CorpusRandom(name: name)
            var audio = [Float](repeating: 0, count: Int(seconds * Double(sampleRate)))
            fill(&audio, sampleRate, &random)
            return CorpusItem(name: name, category: .noBeat, sampleRate: sampleRate, samples: audio,
                              onsets: [], beats: [], summary: summary)
        }
    }

    /// Peak at -6 dBFS (0.5), leaving headroom for detectors that add gain.
    static func normalisePeak(_ audio: inout [Float]) {
        let peak = audio.reduce(0) { max($0, abs($1)) }
        guard peak > 0 else { return }
        let gain = 0.5 / peak
        for i in audio.indices { audio[i] *= gain }
    }

    static func decibels(_ db: Double) -> Double { pow(10, db / 20) }
}
