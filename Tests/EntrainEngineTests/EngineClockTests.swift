import EntrainCore
import EntrainEngine
import TestSupport
import XCTest

final class EngineClockTests: XCTestCase {
    /// The period length must never change the output: that is what makes a render equal
    /// a live run. Glides and crossfades end at frames no block size lines up with, so the
    /// steady-state and the general paths render different stretches for different block sizes,
    /// always while the tones are audible.
    func testOutputDoesNotDependOnBlockSize() throws {
        func run(_ block: Int) throws -> [Float] {
            let host = try TestEngine.host(["/entrain/noise/level": "0.3", "/master/fade-in": "0.5",
                                            "/entrain/voice/2/level": "0.5", "/entrain/voice/2/carrier": "330"])
            try host.change("/entrain/beat", 6, glide: 0.5, at: 6_001)
            try host.change("/entrain/mode", 1, at: 40_003)
            try host.change("/entrain/volume", 0.9, glide: 0, at: 45_555)
            try host.change("/entrain/waveform", 2, at: 52_111)
            try host.change("/entrain/voice/2/mode", 2, at: 61_234)
            try host.change("/entrain/noise", 2, at: 63_000)
            let (l, r) = TestEngine.render(host, seconds: 1.5, blockSize: block)
            return l + r
        }
        let reference = try run(4096)
        for block in [1, 64, 1000, 256] { XCTAssertNil(Measure.firstDifference(try run(block), reference), "block \(block)") }
    }

    /// A command stamped for frame N changes the output exactly at N (plus the limiter's fixed delay).
    func testCommandsApplyOnTheirFrame() throws {
        let host = try TestEngine.host(["/entrain/volume": "0"])
        let at: Int64 = 12_345
        try host.change("/entrain/volume", 1, glide: 0, at: at)
        let (l, _) = TestEngine.render(host, seconds: 0.5, blockSize: 256)
        let latency = PeakLimiterLatency.frames
        let firstSound = l.firstIndex { $0 != 0 }
        XCTAssertEqual(firstSound, Int(at) + latency)
    }

    func testStopFadesToSilenceAndReportsIt() throws {
        let host = try TestEngine.host(["/master/fade-out": "0.5"])
        let renderer = OfflineRenderer(host: host)
        _ = renderer.renderStereo(frames: 48_000)
        try host.stop()
        XCTAssertFalse(host.isStopped)
        let tail = renderer.renderStereo(frames: 48_000)
        XCTAssertTrue(host.isStopped)
        // Silent after 0.5 s (plus the limiter delay), and no click on the way down.
        XCTAssertEqual(Measure.peak(tail.left[25_000...]), 0)
        XCTAssertLessThan(Measure.largestJump(tail.left[...]), 0.04)
    }

    func testPanicSilencesWithinTenMilliseconds() throws {
        let host = try TestEngine.host(["/entrain/volume": "1"])
        let renderer = OfflineRenderer(host: host, blockSize: 64)
        _ = renderer.renderStereo(frames: 4800)
        try host.panic()
        let after = renderer.renderStereo(frames: 4800)
        XCTAssertEqual(Measure.peak(after.left[(480 + PeakLimiterLatency.frames)...]), 0)
        XCTAssertTrue(host.status.pointee.panicked.load(ordering: .relaxed))
    }
}

/// The limiter's delay at 48 kHz (1.5 ms look-ahead, minus one frame).
enum PeakLimiterLatency {
    static let frames = 71
}
