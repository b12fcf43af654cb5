import EntrainCore
@testable import EntrainEngine
import TestSupport
import XCTest

/// The haptic port, rendered offline through the engine and measured.
final class HapticTests: XCTestCase {
    func render(_ host: EngineHost, seconds: Double, port: ClientPort = .haptic) -> [Float] {
        let renderer = OfflineRenderer(host: host, blockSize: 512)
        var out: [Float] = []
        for _ in 0..<Int(seconds * host.sampleRate / 512) {
            renderer.renderBlock(512) { io in out += UnsafeBufferPointer(start: io[port], count: 512) }
        }
        return out
    }

    /// Sharpness moves the carrier across 30–80 Hz.
    func testCarrierFollowsSharpness() throws {
        for (sharpness, expected) in [(0.0, 30.0), (0.4, 50.0), (1.0, 80.0)] {
            let host = try TestEngine.host(["/haptic/source/entrainment": "0", "/haptic/source/manual": "1",
                                            "/haptic/intensity": "1", "/haptic/sharpness": "\(sharpness)"])
            let x = render(host, seconds: 4)
            let peak = Spectrum(Array(x.suffix(131_072)), sampleRate: 48_000).peak(from: 20, to: 100)
            XCTAssertEqual(peak.frequency, expected, accuracy: 0.5, "sharpness \(sharpness)")
        }
    }

    /// The entrainment source swells at voice 1's beat rate; the ceiling holds at full level.
    func testEntrainmentSwellsAtTheBeatRateUnderTheCeiling() throws {
        let host = try TestEngine.host(["/entrain/beat": "4", "/haptic/source/entrainment": "1", "/haptic/level": "1", "/master/ceiling": "-6"])
        let x = render(host, seconds: 6)
        XCTAssertEqual(Measure.envelopeRate(x, sampleRate: 48_000, from: 1, to: 10), 4, accuracy: 0.05)
        XCTAssertLessThanOrEqual(Measure.peak(x), Float(pow(10, -6.0 / 20)) + 1e-6)
        XCTAssertGreaterThan(Measure.peak(x), 0.45)
    }

    /// With the defaults the haptic port is silent (it drove 45 Hz at −7 dBFS from the first
    /// period): a body-contact device waits for a source to be turned on or a pattern played.
    func testSilentUntilASourceOrPatternIsChosen() throws {
        XCTAssertEqual(Measure.peak(render(try TestEngine.host([:]), seconds: 1)), 0)
        XCTAssertGreaterThan(Measure.peak(render(try TestEngine.host(["/haptic/source/entrainment": "1"]), seconds: 1)), 0.2)
    }

    /// A pattern starts on its command's frame and plays its curve: 1 kHz ticks, intensity 0.8
    /// for 100 ms from tick 200 → the drive's envelope is there and nowhere else.
    func testPatternPlaysFromItsFrame() throws {
        let host = try TestEngine.host(["/haptic/source/entrainment": "0", "/haptic/level": "1", "/master/ceiling": "-0.1"])
        var intensity = [Float](repeating: 0, count: 1000)
        for t in 200..<300 { intensity[t] = 0.8 }
        try host.playPattern(intensity: intensity, sharpness: [Float](repeating: 0, count: 1000), at: 4800)
        let x = render(host, seconds: 1.5)
        let lag = 71  // the light and haptics wait out the limiter's look-ahead with the sound
        let start = 4800 + 200 * 48 + lag, end = 4800 + 300 * 48 + lag
        XCTAssertEqual(Measure.peak(x[0..<start]), 0, "silent before the pattern's tick 200")
        XCTAssertEqual(Measure.peak(x[start..<end]), 0.8 * Float(pow(10, -0.1 / 20)), accuracy: 0.01)
        XCTAssertEqual(Measure.peak(x[end...]), 0, "silent after it")
        XCTAssertTrue(host.isPlayingPattern)
    }

    func testPanicAndFreewheelSilenceLightAndHaptics() throws {
        let host = try TestEngine.host(["/haptic/source/manual": "1", "/haptic/intensity": "1",
                                        "/led/source/manual": "1", "/led/manual": "1"])
        XCTAssertGreaterThan(Measure.peak(render(host, seconds: 0.2)), 0.3)
        try host.panic()
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var haptic: [Float] = [], led: [Float] = []
        for _ in 0..<10 {
            renderer.renderBlock(256) { io in
                haptic += UnsafeBufferPointer(start: io[.haptic], count: 256)
                led += UnsafeBufferPointer(start: io[.led], count: 256)
            }
        }
        XCTAssertEqual(Measure.peak(haptic), 0, "haptic silent from the first period after /panic")
        XCTAssertEqual(Measure.peak(led), 0)
        try host.resume()
        host.engine.pointee.freewheeling = true
        XCTAssertEqual(Measure.peak(render(host, seconds: 0.2)), 0, "silent while JACK freewheels")
        XCTAssertEqual(Measure.peak(render(host, seconds: 0.2, port: .led)), 0)
        host.engine.pointee.freewheeling = false
        XCTAssertGreaterThan(Measure.peak(render(host, seconds: 0.2, port: .led)), 0.9)
    }

    /// Light and haptics wait for the sound: with the audio heard 2,400 frames late (JACK's
    /// playback latency) the manual light turns on 2,400 frames later than it would.
    func testLatencyDelaysLightAndHaptics() throws {
        func firstLight(latency: Int) throws -> Int? {
            let host = try TestEngine.host(["/led/source/manual": "1", "/led/manual": "1", "/led/offset": "0"])
            host.engine.pointee.avLatencyFrames = latency
            return render(host, seconds: 0.2, port: .led).firstIndex { $0 > 0.5 }
        }
        let base = try XCTUnwrap(try firstLight(latency: 0))
        XCTAssertEqual(try firstLight(latency: 2400), base + 2400)
    }
}
