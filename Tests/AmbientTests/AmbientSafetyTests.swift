import EntrainAmbient
import EntrainEngine
import Kessho
import TestSupport
import XCTest

/// The safety rules hold for the ambient pair too: the master ceiling, panic, the client's stop.
final class AmbientSafetyTests: XCTestCase {
    /// Everything turned up: master, pad, grains and reverb at their maxima.
    static var loud: KesshoState {
        var s = KesshoState.defaults
        for (key, value) in [("masterVolume", 1.0), ("synthLevel", 1), ("granularLevel", 2), ("reverbLevel", 2),
                             ("synthReverbSend", 1), ("granularReverbSend", 1), ("synthAttack", 0.05), ("hardness", 1)] {
            s[key] = .number(value)
        }
        return s
    }

    func playing(_ host: EngineHost) throws -> (AmbientConductor, OfflineRenderer) {
        let conductor = AmbientConductor(host: host, state: Self.loud, lookaheadSeconds: 256.0 / 48_000) {
            .init(frame: host.frame, unixSeconds: 1_770_040_800 + Double(host.frame) / 48_000)
        }
        try conductor.play(fadeSeconds: 0)
        return (conductor, OfflineRenderer(host: host, blockSize: 256))
    }

    func render(_ seconds: Double, _ conductor: AmbientConductor, _ renderer: OfflineRenderer) throws -> [Float] {
        var out: [Float] = []
        for _ in 0..<Int(seconds * 48_000 / 256) {
            try conductor.pump()
            renderer.renderBlock(256) { io in
                out += UnsafeBufferPointer(start: io[.ambientL], count: 256)
                out += UnsafeBufferPointer(start: io[.ambientR], count: 256)
            }
        }
        return out
    }

    func testCeilingHoldsWithEverythingTurnedUp() throws {
        let host = try EngineHost(sampleRate: 48_000)
        try host.change("/master/ceiling", -20)
        let (conductor, renderer) = try playing(host)
        let out = try render(4, conductor, renderer)
        let ceiling = Float(pow(10, -20.0 / 20))
        XCTAssertLessThanOrEqual(Measure.peak(out), ceiling * 1.0001)
        XCTAssertGreaterThan(Measure.peak(out), ceiling * 0.5, "loud enough to need the limiter")
    }

    func testPanicSilencesAndTheClientsStopFadesTheAmbientPair() throws {
        let host = try EngineHost(sampleRate: 48_000)
        let (conductor, renderer) = try playing(host)
        XCTAssertGreaterThan(Measure.peak(try render(2, conductor, renderer)), 0.01)
        try host.panic()
        let panicked = try render(1, conductor, renderer)
        XCTAssertEqual(Measure.peak(panicked[(panicked.count / 2)...]), 0, "silent after panic")
        try host.resume()
        XCTAssertGreaterThan(Measure.peak(try render(1, conductor, renderer)), 0.01, "back after resume")
        try host.stop()
        let fade = try host.value(of: "/master/fade-out")
        let stopped = try render(fade + 0.5, conductor, renderer)
        XCTAssertEqual(Measure.peak(stopped.suffix(4_800)[...]), 0, "silent after the client's fade-out")
        XCTAssertTrue(host.isStopped)
    }
}
