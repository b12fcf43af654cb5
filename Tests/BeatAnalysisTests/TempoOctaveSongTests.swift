import BeatLab
@testable import EntrainEngine
import XCTest

/// The tempo octave on the corpus's grooves at other tempi (`SongCorpus.variants`): each is
/// followed at its own tempo, not twice it or half it, and locks within four of its beats;
/// backbeat grooves whose half tempo lies in the range are not halved.
///
/// The 62 BPM ballad is the one groove the music itself leaves at two levels: its eighth hats
/// put an attack on every beat at 124, and with the hint at its default (100 BPM, nearer 124 than
/// 62) the tempo-and-phase filter follows it at 124 — on every beat of the song and never
/// switching (AMLt). `/beat/tempo/prefer` is the user's choice between such levels (issue 35:
/// "still chooses the metrical level when the music allows two"): set near the ballad's tempo,
/// it is followed at 62 all through.
final class TempoOctaveSongTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(SongRenderer.isAvailable, "fluidsynth or fluid-soundfont-gm not installed (make test installs them)")
    }

    func testGroovesAtOtherTempiKeepTheirOctave() throws {
        for name in SongCorpus.variantNames where name != "ballad-062" {
            let row = try BeatComparison.ours(try SongCorpus.item(named: name))
            // CMLt counts only beats at the right tempo and phase: a doubled or halved beat scores 0.
            XCTAssertGreaterThanOrEqual(row.beats.continuity.cmlt, 0.9, "\(name): \(row.beats.continuity)")
            XCTAssertGreaterThanOrEqual(row.beats.events.f, 0.9, "\(name): \(row.beats.events)")
            try Self.assertLocksWithinFourBeats(row, name)
        }
    }

    /// The slow ballad at the default hint: one level (double), on the beat, all through; with the
    /// hint at its tempo, its own tempo all through.
    func testTheSlowBalladTakesTheLevelTheHintPrefers() throws {
        let item = try SongCorpus.item(named: "ballad-062")
        let plain = try BeatComparison.ours(item)
        // AMLt accepts double or half tempo but no hop between levels or phases.
        XCTAssertGreaterThanOrEqual(plain.beats.continuity.amlt, 0.9, "default hint: \(plain.beats.continuity)")
        try Self.assertLocksWithinFourBeats(plain, "ballad-062, default hint")
        var values = Engine.parameterTable.defaults
        values[try Engine.parameterTable.entry(for: "/beat/tempo/prefer").index] = 60
        let hinted = try BeatComparison.ours(item, values: values)
        XCTAssertGreaterThanOrEqual(hinted.beats.continuity.cmlt, 0.9, "hint at 60: \(hinted.beats.continuity)")
        XCTAssertGreaterThanOrEqual(hinted.beats.events.f, 0.9, "hint at 60: \(hinted.beats.events)")
        try Self.assertLocksWithinFourBeats(hinted, "ballad-062, hint at 60")
    }

    /// It locks as soon as on the corpus's songs: within four of its beats.
    static func assertLocksWithinFourBeats(_ row: BeatComparison.Row, _ name: String) throws {
        let beats = try XCTUnwrap(row.lock.beatsBeforeLock, "\(name) never locked")
        XCTAssertLessThanOrEqual(beats, 4, "\(name): lock \(row.lock.lockSeconds ?? -1) s")
    }
}
