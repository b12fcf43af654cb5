import BeatLab
import EntrainCore
@testable import EntrainEngine
import XCTest

/// Periods dropped on purpose, as an xrun drops them live: the host skips the engine for a
/// period (its input is lost) and tells it how many frames went by (`Engine.inputLost`, which the
/// JACK client calls from JACK's frame time). The beats must stay where the offline analysis of
/// the whole recording puts them: within 0.02 beat F, on the same level, and on time.
final class DroppedPeriodTests: XCTestCase {
    /// Beats (seconds of the recording) from feeding `samples` period by period, skipping the
    /// periods `drop` names. A beat stamped on engine frame f is at f + the frames lost before it.
    static func beats(_ samples: [Float], sampleRate: Int, period: Int, drop: (Int) -> Bool) throws -> [Double] {
        let host = try EngineHost(sampleRate: Double(sampleRate))
        let renderer = OfflineRenderer(host: host, blockSize: period)
        var beats: [Double] = []
        var lost = 0, index = 0, start = 0
        while start + period <= samples.count {
            defer { start += period; index += 1 }
            if drop(index) {
                host.engine.pointee.inputLost(frames: period)
                lost += period
                continue
            }
            renderer.feedBlock(period) { io in
                samples.withUnsafeBufferPointer { io[.beatIn]!.update(from: $0.baseAddress! + start, count: period) }
            }
            while let event = host.nextBeatEvent() {
                if event.kind == .beat { beats.append(Double(event.frame + Int64(lost)) / Double(sampleRate)) }
            }
        }
        return beats
    }

    /// About 1.5 dropped periods a second (what a loaded non-real-time dummy server gives), at
    /// irregular places, at a 256-frame period.
    func testDroppedPeriodsKeepTheBeatsOfTheWholeRecording() throws {
        for name in ["rock-120", "hiphop-075", "fast-174"] {
            let item = try XCTUnwrap(BeatCorpus.item(named: name))
            let whole = try Self.beats(item.samples, sampleRate: item.sampleRate, period: 256) { _ in false }
            let dropped = try Self.beats(item.samples, sampleRate: item.sampleRate, period: 256) { ($0 * 7919) % 125 == 3 }
            let a = BeatMetrics.evaluateBeats(reference: item.beats, estimated: whole)
            let b = BeatMetrics.evaluateBeats(reference: item.beats, estimated: dropped)
            print(String(format: "%@: beat F whole %.3f, with dropped periods %.3f; median error %.1f / %.1f ms",
                         name, a.events.f, b.events.f, a.events.medianErrorMs ?? 99, b.events.medianErrorMs ?? 99))
            XCTAssertGreaterThanOrEqual(b.events.f, a.events.f - 0.02, "\(name): beat F with dropped periods")
            XCTAssertLessThan(abs((b.events.medianErrorMs ?? 99) - (a.events.medianErrorMs ?? 0)), 3, "\(name): beats moved in time")
        }
    }
}
