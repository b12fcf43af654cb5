/// Bars of the sampled-instrument songs: General MIDI drum keys and the grooves built from them.
enum GMDrum {
    static let kick: UInt8 = 36, sideStick: UInt8 = 37, snare: UInt8 = 38, clap: UInt8 = 39, floorTom: UInt8 = 41
    static let closedHat: UInt8 = 42, pedalHat: UInt8 = 44, lowTom: UInt8 = 45, openHat: UInt8 = 46, midTom: UInt8 = 47
    static let crash: UInt8 = 49, highTom: UInt8 = 50, ride: UInt8 = 51, tambourine: UInt8 = 54, cowbell: UInt8 = 56
    static let highConga: UInt8 = 62, lowConga: UInt8 = 64, shaker: UInt8 = 70
}

extension SongScore.Bar {
    typealias Hit = (position: Double, key: UInt8, velocity: UInt8)

    static func hits(_ key: UInt8, _ positions: [Double], _ velocity: UInt8) -> [Hit] {
        positions.map { ($0, key, velocity) }
    }

    static let eighths: [Double] = [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5]
    static let sixteenths: [Double] = (0..<16).map { Double($0) / 4 }
    /// Swung eighths: the off-beat two thirds through the beat.
    static let swungEighths: [Double] = [0, 2.0 / 3, 1, 5.0 / 3, 2, 8.0 / 3, 3, 11.0 / 3]

    /// Pop/rock: kick 1 and 3, snare 2 and 4, eighth hats (off-beats softer), eighth-note bass, half-note chords.
    static func pop(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.drums = hits(GMDrum.kick, [0, 2], 110) + hits(GMDrum.snare, [1, 3], 105)
            + eighths.map { ($0, GMDrum.closedHat, $0.truncatingRemainder(dividingBy: 1) == 0 ? 80 : 60) }
        bar.bass = eighths.map { ($0, 0.45, 0) }
        bar.keys = [(0, 1.9), (2, 1.9)]
        return bar
    }

    /// Rock with a pushed kick: kick 1, the "and" of 2, 3; snare 2 and 4; eighth hats; chord stabs on 1 and the "and" of 2.
    static func rock(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.drums = hits(GMDrum.kick, [0, 1.5, 2], 110) + hits(GMDrum.snare, [1, 3], 110) + hits(GMDrum.closedHat, eighths, 75)
        bar.bass = eighths.map { ($0, 0.4, 0) }
        bar.keys = [(0, 1.4), (1.5, 2.4)]
        return bar
    }

    /// Shuffle: swung hats, kick 1, 3 and the swung "and" of 2, snare 2 and 4, a swung walking bass,
    /// chords on the swung off-beats of 2 and 4.
    static func shuffle(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.drums = hits(GMDrum.kick, [0, 5.0 / 3, 2], 105) + hits(GMDrum.snare, [1, 3], 100)
            + swungEighths.map { ($0, GMDrum.ride, $0.truncatingRemainder(dividingBy: 1) == 0 ? 85 : 65) }
        bar.bass = [(0, 0.6, 0), (2.0 / 3, 0.3, 7), (1, 0.6, 9), (5.0 / 3, 0.3, 7), (2, 0.6, 0), (8.0 / 3, 0.3, 4), (3, 0.6, 5), (11.0 / 3, 0.3, 7)]
        bar.keys = [(5.0 / 3, 0.3), (11.0 / 3, 0.3)]
        return bar
    }

    /// Syncopated: kick on 1, the "a" of 1, the "and" of 2 and the "e" of 4; snare 2 and 4 with ghost notes;
    /// chords on every off-beat (a skank), a bass that anticipates the bar.
    static func syncopated(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.drums = hits(GMDrum.kick, [0, 0.75, 1.5, 3.25], 110) + hits(GMDrum.snare, [1, 3], 105)
            + hits(GMDrum.snare, [1.75, 2.5, 3.75], 40) + hits(GMDrum.closedHat, sixteenths, 55)
        bar.bass = [(0, 0.5, 0), (0.75, 0.5, 0), (1.5, 0.75, 7), (2.5, 0.5, 10), (3.25, 0.5, 12), (3.75, 0.25, 7)]
        bar.keys = [0.5, 1.5, 2.5, 3.5].map { ($0, 0.3) }
        return bar
    }

    /// Ballad: kick 1 and the "and" of 2, side stick 2 and 4, eighth hats, arpeggio-free whole-bar chords, half-note bass.
    static func ballad(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.drums = hits(GMDrum.kick, [0, 2.5], 95) + hits(GMDrum.sideStick, [1, 3], 90) + hits(GMDrum.closedHat, eighths, 60)
        bar.bass = [(0, 1.9, 0), (2.5, 1.4, 7)]
        bar.keys = [(0, 1.9), (2, 1.9)]
        return bar
    }

    /// Disco/house: four-on-the-floor kick, clap 2 and 4, open hats on the off-beats, octave bass on the off-beats.
    static func disco(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.drums = hits(GMDrum.kick, [0, 1, 2, 3], 110) + hits(GMDrum.clap, [1, 3], 95) + hits(GMDrum.openHat, [0.5, 1.5, 2.5, 3.5], 75)
        bar.bass = eighths.map { ($0, 0.4, $0.truncatingRemainder(dividingBy: 1) == 0 ? 0 : 12) }
        bar.keys = [(0.5, 0.4), (2.5, 0.4)]
        return bar
    }

    /// The last bar of a phrase: the groove's first two beats, then a sixteenth-note tom fill and a crash to come.
    func withFill() -> Self {
        var bar = self
        bar.drums = drums.filter { $0.position < 2 }
        let toms = [GMDrum.highTom, GMDrum.highTom, GMDrum.midTom, GMDrum.midTom, GMDrum.lowTom, GMDrum.lowTom, GMDrum.floorTom, GMDrum.floorTom]
        bar.drums += toms.enumerated().map { (2 + Double($0.offset) / 4, $0.element, UInt8(90 + 3 * $0.offset)) }
        return bar
    }

    /// Dense: sixteenth hats and shaker, congas, kick/snare with a pushed kick, sixteenth-note bass, comping chords.
    static func dense(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.drums = hits(GMDrum.kick, [0, 1.75, 2, 2.5], 110) + hits(GMDrum.snare, [1, 3], 105)
            + hits(GMDrum.closedHat, sixteenths, 60) + hits(GMDrum.shaker, sixteenths, 50)
            + hits(GMDrum.highConga, [0.5, 1.25, 2.75, 3.5], 75) + hits(GMDrum.lowConga, [0.75, 2.25, 3.25], 75)
            + hits(GMDrum.tambourine, [1, 3], 70)
        bar.bass = [(0, 0.25, 0), (0.5, 0.25, 12), (0.75, 0.25, 0), (1.5, 0.25, 10), (1.75, 0.25, 12),
                    (2.25, 0.25, 7), (2.75, 0.25, 0), (3.5, 0.25, 3)]
        bar.keys = [(0, 0.4), (0.75, 0.4), (1.5, 0.4), (2.5, 0.4), (3.25, 0.4)]
        return bar
    }

    /// A drum break: no drums; held chords and a held bass note, one attack per bar.
    static func drumBreak(_ chord: SongScore.Chord) -> Self {
        var bar = Self(chord: chord)
        bar.bass = [(0, 3.9, 0)]
        bar.keys = [(0, 3.9)]
        return bar
    }

    /// The crash on the downbeat of a new section.
    func withCrash() -> Self {
        var bar = self
        bar.drums.append((0, GMDrum.crash, 100))
        return bar
    }
}
