import EntrainCore
@testable import EntrainEngine
import XCTest

/// The MIDI clock's own beats across hand-overs between grids of other tempos and phases,
/// through BeatMIDI as the process thread drives them.
final class ClockFlywheelTests: XCTestCase {
    typealias Grid = ClockFlywheel.Grid

    /// Runs periods of 256 frames from frame 0 to `frames`; `target(start)` is the grid followed then.
    func run(frames: Int64, target: (Int64) -> Grid?) -> (beats: [BeatEvent], clocks: [Int64], others: [UInt8]) {
        var flywheel = ClockFlywheel()
        var midi = BeatMIDI(settings: BeatMIDISettings(), sampleRate: 48_000)
        var beats: [BeatEvent] = [], clocks: [Int64] = [], others: [UInt8] = []
        for start in stride(from: Int64(0), to: frames, by: 256) {
            midi.begin(start: start, frames: 256)
            flywheel.beats(start: start, end: start + 256, target: target(start), strength: 1, sampleRate: 48_000) {
                beats.append($0)
                midi.take($0)
            }
            midi.finish()
            for k in 0..<midi.outCount where midi.out[k].size == 1 {
                if midi.out[k].b0 == BeatMIDI.clock { clocks.append(start + Int64(midi.out[k].offset)) } else { others.append(midi.out[k].b0) }
            }
        }
        return (beats, clocks, others)
    }

    func testOnItsTargetEveryBeatLandsOnTheTargetsFrame() {
        let grid = Grid(frame: 1_000, period: 24_000)
        let (beats, clocks, others) = run(frames: 48_000 * 10) { _ in grid }
        XCTAssertEqual(beats.map(\.frame), Array(stride(from: Int64(1_000), to: 48_000 * 10, by: 24_000)))
        XCTAssertEqual(beats.first?.count, 1, "the first beat is counted 1 (Start)")
        XCTAssertEqual(others, [BeatMIDI.startByte])
        XCTAssertTrue(zip(clocks, clocks.dropFirst()).allSatisfy { $1 - $0 == 1_000 }, "clocks every 1,000 frames")
    }

    /// 120 BPM, then a grid at 100 BPM a third of a beat off, then 120 BPM half a beat off the
    /// first: never a Stop or Continue, 24 clocks in every beat, each beat within the slew of the
    /// one before, the clock's spacing between the two tempos' (less and more the slew), and on
    /// each new grid's frames once it has glided there.
    func testHandOversGlideWithoutAStopABurstOrAGap() {
        let a = Grid(frame: 1_000, period: 24_000), b = Grid(frame: 9_000, period: 28_800), c = Grid(frame: 13_000, period: 24_000)
        let toB: Int64 = 48_000 * 10, toC: Int64 = 48_000 * 30
        let (beats, clocks, others) = run(frames: 48_000 * 50) { $0 < toB ? a : $0 < toC ? b : c }
        XCTAssertEqual(others, [BeatMIDI.startByte], "Start, then neither Stop nor Continue")
        for (x, y) in zip(beats, beats.dropFirst()) {
            XCTAssertEqual(clocks.filter { $0 >= x.frame && $0 < y.frame }.count, 24, "24 clocks in the beat at \(x.frame)")
            XCTAssertLessThanOrEqual(abs(Double(y.framesToNext) / Double(x.framesToNext) - 1), ClockFlywheel.slew + 1e-4)
        }
        let gaps = zip(clocks, clocks.dropFirst()).map { $1 - $0 }
        let slew = ClockFlywheel.slew
        XCTAssertGreaterThanOrEqual(Double(gaps.min()!), 1_000 * (1 - slew) - 1, "no burst")
        XCTAssertLessThanOrEqual(Double(gaps.max()!), 1_200 * (1 + slew) + 1, "no gap")
        let onB = beats.filter { $0.frame >= toB + 48_000 * 12 && $0.frame < toC }
        XCTAssertFalse(onB.isEmpty)
        XCTAssertTrue(onB.allSatisfy { ($0.frame - b.frame) % 28_800 == 0 }, "on the 100 BPM grid: \(onB.map(\.frame))")
        let onC = beats.filter { $0.frame >= toC + 48_000 * 12 }
        XCTAssertFalse(onC.isEmpty)
        XCTAssertTrue(onC.allSatisfy { ($0.frame - c.frame) % 24_000 == 0 }, "on the shifted 120 BPM grid: \(onC.map(\.frame))")
    }

    /// Steady drums at 108 BPM seen through a tracker whose beats jitter by up to ±1 % of a beat
    /// and whose period estimate wanders by ±0.2 %: once locked, every beat of the clock is
    /// within 0.2 % of the drums' tempo (it followed each jitter by up to 5 %: 42.5 clocks/s,
    /// 106 BPM, was heard), and the clock stays on the drums' beats (no beat slips).
    func testLockedOnJitteryBeatsEveryBeatStaysWithinTwoTenthsOfAPercent() {
        let period = 48_000.0 * 60 / 108
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func uniform(_ half: Double) -> Double {  // a fixed sequence: the same run every time
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * half
        }
        var reported: [Int64: Grid] = [:]
        func target(_ start: Int64) -> Grid {
            let k = Int64((Double(start) / period).rounded(.down))  // the last beat the tracker reported
            if let grid = reported[k] { return grid }
            let grid = Grid(frame: Int64((Double(k) * period + uniform(0.01) * period).rounded()), period: period * (1 + uniform(0.002)))
            reported[k] = grid
            return grid
        }
        let (beats, clocks, others) = run(frames: 48_000 * 60) { target($0) }
        XCTAssertEqual(others, [BeatMIDI.startByte])
        let locked = beats.filter { $0.frame > 48_000 * 20 }
        XCTAssertGreaterThan(locked.count, 60)
        let worst = locked.map { abs(Double($0.framesToNext) / period - 1) }.max() ?? 1
        XCTAssertLessThanOrEqual(worst, ClockFlywheel.steady, "each beat within 0.2 % of 108 BPM")
        let first = locked.first!.frame, last = locked.last!.frame
        let perSecond = Double(clocks.filter { $0 >= first && $0 < last }.count) / (Double(last - first) / 48_000)
        XCTAssertEqual(perSecond, 108 * 24 / 60.0, accuracy: 43.2 * 0.002, "clocks per second")
        let off = locked.map { b in abs(Double(b.frame) - (Double(b.frame) / period).rounded() * period) / period }.max() ?? 1
        XCTAssertLessThan(off, 0.03, "on the drums' beats, within 3 % of a beat")
        print(String(format: "MIDI clock on jittery 108 BPM beats: worst beat %.3f %% off the tempo, %.3f clocks/s, phase within %.2f %% of a beat",
                     worst * 100, perSecond, off * 100))
    }

    /// No target yet: nothing; a target lost later: the beats run on at their length.
    func testWithoutATargetItWaitsThenRunsOn() {
        let grid = Grid(frame: 5_000, period: 24_000)
        let (beats, _, _) = run(frames: 48_000 * 8) { $0 < 48_000 ? nil : $0 < 48_000 * 3 ? grid : nil }
        XCTAssertEqual(beats.first?.frame, 53_000, "the first beat on the target's first beat")
        XCTAssertEqual(beats.map(\.frame), Array(stride(from: Int64(53_000), to: 48_000 * 8, by: 24_000)))
    }

    /// Drums at 90 BPM whose tracker reports its interval half a percent long at first (its
    /// estimate of the moment, 32,166 frames for 32,000) and the true one from 6 s, each report
    /// on a true beat, after a phrase grid at 120 BPM: the clock glides from 120 to 90 and, once
    /// locked, is on the drums' beats within 2 ms by 12 s and stays there (it locked with the
    /// first estimate and followed it a sixteenth of the way: 10–16 ms off for twenty beats).
    func testLockedWithATempoHalfAPercentOffItIsOnTheBeatsWithinABar() {
        let period: Int64 = 32_000, phrase = Grid(frame: 500, period: 24_000)
        func target(_ start: Int64) -> Grid {
            guard start >= 48_000 * 2 else { return phrase }
            let last = start / period * period  // the last beat the tracker reported
            return Grid(frame: last, period: start < 48_000 * 6 ? 32_166 : Double(period))
        }
        let (beats, clocks, others) = run(frames: 48_000 * 40) { target($0) }
        XCTAssertEqual(others, [BeatMIDI.startByte])
        for (x, y) in zip(beats, beats.dropFirst()) {
            XCTAssertEqual(clocks.filter { $0 >= x.frame && $0 < y.frame }.count, 24, "24 clocks in the beat at \(x.frame)")
        }
        let late = beats.filter { $0.frame >= 48_000 * 12 }
        XCTAssertGreaterThan(late.count, 35)
        let off = late.map { b in abs(b.frame - (b.frame + period / 2) / period * period) }.max() ?? .max
        XCTAssertLessThanOrEqual(off, 96, "within 2 ms of the drums' beats from 12 s on")
        let worst = late.map { abs(Double($0.framesToNext) / Double(period) - 1) }.max() ?? 1
        XCTAssertLessThanOrEqual(worst, ClockFlywheel.steady, "each beat within 0.2 % of 90 BPM from 12 s on")
        print(String(format: "MIDI clock locked on an estimate 0.5 %% long: within %.2f ms of the beats from 12 s, worst beat %.3f %% off the tempo",
                     Double(off) / 48, worst * 100))
    }
}
