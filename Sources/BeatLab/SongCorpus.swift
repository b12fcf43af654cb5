import Foundation

/// Songs played by sampled instruments: General MIDI drums, bass and piano written as MIDI
/// files here and rendered by fluidsynth with the FluidR3 GM soundfont (Debian: fluidsynth,
/// fluid-soundfont-gm). Human timing (notes up to 6 ms off the grid), tempi from 70 to 180 BPM,
/// shuffle, syncopation, fills, a dense mix, a drum break and a drifting tempo. The truth is
/// exact: the beats are the MIDI tempo map's quarter notes.
public enum SongCorpus {
    public static var names: [String] { specs.map(\.name) }

    /// The category and a one-line description of each song.
    public static func summary(of name: String) -> (category: CorpusItem.Category, text: String)? {
        everySpec.first { $0.name == name }.map { ($0.category, $0.summary) }
    }

    /// Grooves of the corpus at other tempi, for the tempo-octave decisions (not in the main
    /// table): the ballad slower and faster, and backbeat grooves whose half lies in the range.
    public static var variantNames: [String] { variants.map(\.name) }

    /// One song rendered (or taken from the cache, see `SongRenderer`), of the corpus or its variants.
    public static func item(named name: String) throws -> CorpusItem {
        guard let spec = everySpec.first(where: { $0.name == name }) else { throw CorpusError.unknownSong(name) }
        return try SongRenderer.shared.item(spec)
    }

    public static func items() throws -> [CorpusItem] { try specs.map { try SongRenderer.shared.item($0) } }

    struct Spec {
        var name: String
        var category: CorpusItem.Category
        var summary: String
        var score: SongScore
    }

    typealias Bar = SongScore.Bar
    static let progression: [SongScore.Chord] = [.c, .g, .am, .f]
    static let minor: [SongScore.Chord] = [.am, .dm, .e, .am]

    /// `count` bars of `groove` over a chord sequence, a crash on the first.
    static func bars(_ count: Int, _ groove: (SongScore.Chord) -> Bar, chords: [SongScore.Chord] = progression) -> [Bar] {
        (0..<count).map { i in
            let bar = groove(chords[i % chords.count])
            return i == 0 ? bar.withCrash() : bar
        }
    }

    static func steady(_ bpm: Double) -> (Int) -> Double { { _ in bpm } }

    static let specs: [Spec] = [
        Spec(name: "pop-120", category: .steady, summary: "pop at 120 BPM: kick 1 & 3, snare 2 & 4, eighth hats and bass, piano half notes",
             score: SongScore(bars: bars(15, Bar.pop), tempo: steady(120))),
        Spec(name: "ballad-070", category: .steady, summary: "ballad at 70 BPM: side stick on 2 & 4, eighth hats, kick on 1 and the and of 2, held piano",
             score: SongScore(bars: bars(9, Bar.ballad), tempo: steady(70), bassProgram: 32, keysProgram: 4)),
        Spec(name: "shuffle-084", category: .swing, summary: "shuffle at 84 BPM: swung ride, walking bass, chords on the swung off-beats",
             score: SongScore(bars: bars(11, Bar.shuffle), tempo: steady(84), keysProgram: 16)),
        Spec(name: "synco-110", category: .steady, summary: "syncopated at 110 BPM: kick on 1, the a of 1, the and of 2 and the e of 4; chords on every off-beat",
             score: SongScore(bars: bars(14, Bar.syncopated, chords: minor), tempo: steady(110), bassProgram: 38, keysProgram: 4)),
        Spec(name: "disco-128-fills", category: .steady, summary: "four-on-the-floor at 128 BPM with a tom fill every fourth bar",
             score: SongScore(bars: bars(16, Bar.disco).enumerated().map { $0.offset % 4 == 3 ? $0.element.withFill() : $0.element },
                              tempo: steady(128), bassProgram: 38, keysProgram: 4)),
        Spec(name: "rock-140", category: .steady, summary: "rock at 140 BPM: kick 1, the and of 2 and 3, snare 2 & 4, eighth hats, chord stabs",
             score: SongScore(bars: bars(18, Bar.rock), tempo: steady(140), bassProgram: 34, keysProgram: 29)),
        Spec(name: "dense-100", category: .steady, summary: "dense mix at 100 BPM: sixteenth hats and shaker, congas, tambourine, sixteenth bass, comping",
             score: SongScore(bars: bars(13, Bar.dense, chords: minor), tempo: steady(100), bassProgram: 38, keysProgram: 4)),
        Spec(name: "punk-180", category: .steady, summary: "fast at 180 BPM: kick 1 & 3, snare 2 & 4, eighth hats and bass",
             score: SongScore(bars: bars(23, Bar.pop), tempo: steady(180), bassProgram: 34, keysProgram: 29)),
        Spec(name: "break-100", category: .breaks,
             summary: "pop at 100 BPM with a four-bar drum break from 15 s (held piano and bass only), then drums again",
             score: SongScore(bars: bars(6, Bar.pop) + progression.map(Bar.drumBreak)
                                  + bars(5, Bar.pop), tempo: steady(100))),
        Spec(name: "drift-092-108", category: .tempoChange,
             summary: "rock whose tempo drifts from 92 to 108 BPM over 64 beats with a slow wobble, like a band rushing",
             score: SongScore(bars: bars(16, Bar.rock), tempo: { k in 92 + 16 * Double(min(k, 64)) / 64 + 2 * sin(Double(k) * 2 * .pi / 24) },
                              bassProgram: 34)),
    ]

    static var everySpec: [Spec] { specs + variants }

    static let variants: [Spec] = [
        Spec(name: "ballad-062", category: .steady, summary: "the ballad at 62 BPM",
             score: SongScore(bars: bars(8, Bar.ballad), tempo: steady(62), bassProgram: 32, keysProgram: 4)),
        Spec(name: "ballad-090", category: .steady, summary: "the ballad at 90 BPM",
             score: SongScore(bars: bars(11, Bar.ballad), tempo: steady(90), bassProgram: 32, keysProgram: 4)),
        Spec(name: "synco-124", category: .steady, summary: "the syncopated groove at 124 BPM",
             score: SongScore(bars: bars(16, Bar.syncopated, chords: minor), tempo: steady(124), bassProgram: 38, keysProgram: 4)),
        Spec(name: "shuffle-126", category: .swing, summary: "the shuffle at 126 BPM",
             score: SongScore(bars: bars(16, Bar.shuffle), tempo: steady(126), keysProgram: 16)),
        Spec(name: "punk-150", category: .steady, summary: "kick 1 & 3, snare 2 & 4 at 150 BPM",
             score: SongScore(bars: bars(20, Bar.pop), tempo: steady(150), bassProgram: 34, keysProgram: 29)),
    ]
}
