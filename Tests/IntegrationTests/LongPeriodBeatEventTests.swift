import BeatLab
import EntrainCore
import EntrainEngine
import TestSupport
import XCTest

/// A JACK period longer than the engine's chunk (4,096 frames) is analysed in pieces; the events
/// the JACK client turns into MIDI must be the whole period's, not only its last piece's.
final class LongPeriodBeatEventTests: XCTestCase {
    /// The onset and beat events the engine reports period by period for drums on beat_in.
    func events(period: Int, samples: [Float]) throws -> [BeatEvent] {
        let host = try TestEngine.host()
        let input = UnsafeMutablePointer<Float>.allocate(capacity: period)
        defer { input.deallocate() }
        var found: [BeatEvent] = []
        for start in stride(from: 0, to: samples.count - period, by: period) {
            for i in 0..<period { input[i] = samples[start + i] }
            var io = PortBuffers()
            io[.beatIn] = input
            host.engine.pointee.process(io, frames: period)
            for k in 0..<Engine.beatEventCount(host.engine) { found.append(Engine.beatEvent(host.engine, k)) }
        }
        return found
    }

    func testAnEightThousandFramePeriodReportsEveryOnsetAndBeat() throws {
        let item = try XCTUnwrap(BeatCorpus.item(named: "rock-120", sampleRate: 48_000))
        let samples = Array(item.samples.prefix(48_000 * 12))
        let short = try events(period: 256, samples: samples), long = try events(period: 8_192, samples: samples)
        let end = Int64(samples.count / 8_192 * 8_192)
        let shortOnsets = short.filter { $0.kind == .onset && $0.frame < end - 8_192 }.map(\.frame)
        let longOnsets = Set(long.filter { $0.kind == .onset }.map(\.frame))
        XCTAssertGreaterThan(shortOnsets.count, 30)
        // Onsets are found hop by hop, whatever the period: the same frames.
        XCTAssertEqual(shortOnsets.filter { !longOnsets.contains($0) }, [], "onsets missing at 8,192 frames a period")
        let shortBeats = short.filter { $0.kind == .beat && $0.frame < end }.count, longBeats = long.filter { $0.kind == .beat }.count
        XCTAssertEqual(Double(longBeats), Double(shortBeats), accuracy: 1, "beats at 8,192 vs 256 frames a period")
        print("period 8192: \(longOnsets.count) onsets and \(longBeats) beats reported; at 256: \(shortOnsets.count) and \(shortBeats)")
    }
}
