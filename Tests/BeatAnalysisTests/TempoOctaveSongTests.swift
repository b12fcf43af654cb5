import BeatLab
@testable import EntrainEngine
import XCTest

/// The tempo octave on the corpus's grooves at other tempi (`SongCorpus.variants`): the ballad
/// slower and faster is followed at its own tempo, not twice it; backbeat grooves whose half
/// tempo lies in the range are not halved (their snare leaves every other beat empty in the mid
/// band too, but they are busy: the halving needs a sparse groove). Each locks within four beats.
final class TempoOctaveSongTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(SongRenderer.isAvailable, "fluidsynth or fluid-soundfont-gm not installed (make test installs them)")
    }

    func testGroovesAtOtherTempiKeepTheirOctave() throws {
        for name in SongCorpus.variantNames {
            let row = try BeatComparison.ours(try SongCorpus.item(named: name))
            // CMLt counts only beats at the right tempo and phase: a doubled or halved beat scores 0.
            XCTAssertGreaterThanOrEqual(row.beats.continuity.cmlt, 0.9, "\(name): \(row.beats.continuity)")
            XCTAssertGreaterThanOrEqual(row.beats.events.f, 0.9, "\(name): \(row.beats.events)")
            // And it locks as soon as on the corpus's songs: within four of its beats.
            let beats = try XCTUnwrap(row.lock.beatsBeforeLock, "\(name) never locked")
            XCTAssertLessThanOrEqual(beats, 4, "\(name): lock \(row.lock.lockSeconds ?? -1) s")
        }
    }
}
