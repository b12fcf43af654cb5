import EntrainCore
import XCTest

/// The line a Link session is led by, fed the beats a tracker reports through lost cycles.
final class BeatLineFitTests: XCTestCase {
    let period = 256.0 / 48_000 * 1e6  // µs

    /// Clicks at 117 BPM; every 7th beat a lost cycle makes the tracker a period late for two
    /// beats, and its own tempo reads 1 % fast (counted in the frames it heard). The line gives
    /// the clicks' tempo and puts each beat within a fraction of a period of the click.
    func testLostCyclesMoveNeitherTheTempoNorThePhase() {
        let beat = 60e6 / 117
        var fit = BeatLineFit()
        var last: (bpm: Double, time: Double) = (0, 0)
        var offsets: [Double] = []
        for n in 0..<64 {
            let click = 1e6 + Double(n) * beat
            let late = n % 7 == 1 || n % 7 == 2 ? period : 0
            last = fit.add(time: click + late, bpm: 117 * 1.01)
            if n >= 16 { offsets.append(last.time - click) }
        }
        XCTAssertEqual(last.bpm, 117, accuracy: 0.05, "the clicks' tempo, not the tracker's fast one")
        XCTAssertLessThan(offsets.map(abs).max()!, period / 2, "each beat within half a period of its click")
    }

    /// The tracker runs a period late for a while (a lost cycle it has not re-phased from); the
    /// onsets heard on the clicks move each of its beats back: the line is the clicks' own.
    func testBeatsMovedOntoTheirOnsetsPutTheLineOnTheClicks() {
        let beat = 60e6 / 128
        var fit = BeatLineFit()
        var last: (bpm: Double, time: Double) = (0, 0)
        for n in 0..<40 {
            let click = Double(n) * beat
            let late = (10..<30).contains(n) ? 2 * period : 0
            last = fit.add(time: click + late, bpm: 128)
            fit.moveLast(to: click)
        }
        XCTAssertEqual(last.bpm, 128, accuracy: 0.01)
        let next = fit.add(time: 40 * beat, bpm: 128)
        XCTAssertEqual(next.time, 40 * beat, accuracy: 1, "on the click to the µs")
        XCTAssertEqual(next.bpm, 128, accuracy: 0.001)
    }

    /// A beat the tracker skipped counts as two steps; the line holds.
    func testASkippedBeatKeepsTheLine() {
        let beat = 60e6 / 96
        var fit = BeatLineFit()
        var last: (bpm: Double, time: Double) = (0, 0)
        for n in 0..<24 where n != 10 { last = fit.add(time: Double(n) * beat, bpm: 96) }
        XCTAssertEqual(last.bpm, 96, accuracy: 0.01)
        XCTAssertEqual(last.time, 23 * beat, accuracy: 1)
    }

    /// A real tempo change (120 → 140) or a jump to the off-beat starts the line over: within
    /// the four beats it needs, the new tempo and phase are what it gives.
    func testATempoChangeOrAPhaseJumpStartsOver() {
        var fit = BeatLineFit()
        var time = 0.0
        for _ in 0..<20 { time += 60e6 / 120; _ = fit.add(time: time, bpm: 120) }
        var last: (bpm: Double, time: Double) = (0, 0)
        for _ in 0..<5 { time += 60e6 / 140; last = fit.add(time: time, bpm: 140) }
        XCTAssertEqual(last.bpm, 140, accuracy: 0.01)
        XCTAssertEqual(last.time, time, accuracy: 1)
        time += 60e6 / 140 / 2  // the tracker moves to the off-beat
        for _ in 0..<5 { time += 60e6 / 140; last = fit.add(time: time, bpm: 140) }
        XCTAssertEqual(last.time, time, accuracy: 1, "on the tracker's new phase")
    }

    /// The line spans at most 32 beats: a slow drift of the clicks (a drummer pushing from 100
    /// to 102 BPM over a minute) is followed within 0.3 BPM.
    func testASlowDriftIsFollowed() {
        var fit = BeatLineFit()
        var time = 0.0, bpm = 100.0
        var last: (bpm: Double, time: Double) = (0, 0)
        for n in 0..<101 {
            bpm = 100 + 2 * Double(n) / 100
            time += 60e6 / bpm
            last = fit.add(time: time, bpm: bpm)
        }
        XCTAssertEqual(last.bpm, 102, accuracy: 0.3)
    }
}
