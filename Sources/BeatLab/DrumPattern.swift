/// One bar of 4/4 as hits at positions in quarter notes (0 = the downbeat, 0.5 = the "and").
struct DrumPattern {
    struct Note {
        var position: Double
        var voice: DrumVoice
        var velocity: Float
    }

    var notes: [Note]

    init(_ groups: [Note]...) {
        notes = groups.flatMap { $0 }.sorted { $0.position < $1.position }
    }

    static func hits(_ voice: DrumVoice, _ positions: [Double], velocity: Float = 1) -> [Note] {
        positions.map { Note(position: $0, voice: voice, velocity: velocity) }
    }

    /// `count` positions from `from`, `step` apart.
    static func grid(_ from: Double, step: Double, count: Int) -> [Double] {
        (0..<count).map { from + Double($0) * step }
    }

    static let quarters: [Double] = [0, 1, 2, 3]
    static let backbeat: [Double] = [1, 3]

    /// Accented click on the downbeat, plain clicks on beats 2-4.
    static let click = DrumPattern(hits(.accentClick, [0]), hits(.click, [1, 2, 3], velocity: 0.8))

    /// Kick on 1 and 3, snare on 2 and 4, eighth-note hats with the off-beats softer.
    static let rock = DrumPattern(hits(.kick, [0, 2]), hits(.snare, backbeat),
                                  hits(.closedHat, quarters, velocity: 0.9), hits(.closedHat, grid(0.5, step: 1, count: 4), velocity: 0.6))

    /// Kick on every quarter, snare on 2 and 4, eighth hats: the driving 180 BPM variant.
    static let fourKick = DrumPattern(hits(.kick, quarters), hits(.snare, backbeat),
                                      hits(.closedHat, grid(0, step: 0.5, count: 8), velocity: 0.8))

    /// Four-on-the-floor house: kick every quarter, snare (clap) on 2 and 4, open hats on the off-beats.
    static let house = DrumPattern(hits(.kick, quarters), hits(.snare, backbeat, velocity: 0.8),
                                   hits(.openHat, grid(0.5, step: 1, count: 4), velocity: 0.8))

    /// Hip-hop: sixteenth hats, snare on 2 and 4, a syncopated kick (1, the "a" of 1, the "and" of 3).
    static let hipHop = DrumPattern(hits(.kick, [0, 2.5], velocity: 0.95), hits(.kick, [0.75], velocity: 0.8),
                                    hits(.snare, backbeat),
                                    hits(.closedHat, grid(0, step: 0.5, count: 8), velocity: 0.7),
                                    hits(.closedHat, grid(0.25, step: 0.5, count: 8), velocity: 0.45))

    /// Shuffle: hats on swung eighths (2:1, the off-beat two thirds into the beat), the kick
    /// picking up the swung "and" of 2.
    static let shuffle = DrumPattern(hits(.kick, [0, 2]), hits(.kick, [1 + 2.0 / 3], velocity: 0.7), hits(.snare, backbeat),
                                     hits(.closedHat, quarters, velocity: 0.85),
                                     hits(.closedHat, quarters.map { $0 + 2.0 / 3 }, velocity: 0.55))
}
