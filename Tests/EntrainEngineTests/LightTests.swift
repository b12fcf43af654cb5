import EntrainCore
@testable import EntrainEngine
import TestSupport
import XCTest

/// The led port, rendered offline through the engine and measured.
final class LightTests: XCTestCase {
    /// Walks the led output block by block; `visit` gets (engine frame, value).
    func walkLED(_ host: EngineHost, seconds: Double, block: Int = 1024, _ visit: (Int64, Float) -> Void) {
        let renderer = OfflineRenderer(host: host, blockSize: block)
        var done = 0
        let frames = Int(seconds * host.sampleRate)
        while done < frames {
            let n = min(block, frames - done)
            let start = host.frame
            renderer.renderBlock(n) { io in
                for i in 0..<n { visit(start + Int64(i), io[.led]![i]) }
            }
            done += n
        }
    }

    /// Rising edges (0 → on) of a square strobe with no edge ramp.
    func risingEdges(_ host: EngineHost, seconds: Double) -> [Int64] {
        var edges: [Int64] = []
        var previous: Float = 0
        walkLED(host, seconds: seconds) { frame, x in
            if x > 0.5 && previous <= 0.5 { edges.append(frame) }
            previous = x
        }
        return edges
    }

    static let strobe = ["/led/arm": "1", "/entrain/mode": "isochronic", "/led/edge": "0", "/led/duty": "0.5"]

    /// 40 Hz for ten minutes: every rising edge on k × 1,200 exactly (zero drift, zero jitter);
    /// 33 Hz, whose period is not a whole number of frames: every edge on ceil(k × 48,000 / 33).
    /// Both plus the output limiter's look-ahead, which the sound waits out and so the light too.
    func testStrobeEdgesLandOnTheIdealFrames() throws {
        let host = try TestEngine.host(Self.strobe.merging(["/entrain/beat": "40"]) { $1 })
        let lag = Int64(host.engine.pointee.entrainmentBus.limiter.latency)
        XCTAssertEqual(lag, 71)
        let edges = risingEdges(host, seconds: 600)
        XCTAssertEqual(edges.count, 40 * 600)
        XCTAssertEqual(edges.enumerated().first { Int64($0.offset) * 1200 + lag != $0.element }?.element, nil, "an edge off the ideal schedule")

        let odd = try TestEngine.host(Self.strobe.merging(["/entrain/beat": "33"]) { $1 })
        let oddEdges = risingEdges(odd, seconds: 60)
        XCTAssertEqual(oddEdges.count, 33 * 60)
        for (k, edge) in oddEdges.enumerated() {
            let ideal = Int64((Double(k) * 48_000 / 33).rounded(.up)) + lag
            XCTAssertEqual(edge, ideal, "edge \(k)")
            if edge != ideal { break }
        }
    }

    /// The light and the isochronic pulse start together: the strobe's rising edges are the
    /// frames where the sound's gate opens (after the limiter's look-ahead, which the light waits
    /// out too).
    func testStrobeIsLockedToTheIsochronicPulse() throws {
        let host = try TestEngine.host(Self.strobe.merging(["/entrain/beat": "10", "/entrain/edge": "0.01"]) { $1 })
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        var ledOn: [Int] = [], soundOn: [Int] = []
        var previousLED: Float = 0, silentFor = 1000
        for block in 0..<(48_000 * 3 / 256) {
            renderer.renderBlock(256) { io in
                for i in 0..<256 {
                    let frame = block * 256 + i
                    let led = io[.led]![i], sound = abs(io[.entrainmentL]![i])
                    if led > 0.5 && previousLED <= 0.5 { ledOn.append(frame) }
                    previousLED = led
                    if sound > 1e-4 { if silentFor > 200 { soundOn.append(frame) }; silentFor = 0 } else { silentFor += 1 }
                }
            }
        }
        XCTAssertEqual(ledOn.count, 30)
        XCTAssertEqual(soundOn.count, 30)
        for (l, s) in zip(ledOn, soundOn) { XCTAssertLessThanOrEqual(abs(l - s), 2, "light \(l), sound \(s)") }
    }

    func testDisarmedStrobeIsDarkButManualLightPasses() throws {
        var maximum: Float = 0
        walkLED(try TestEngine.host(["/entrain/mode": "isochronic"]), seconds: 1) { _, x in maximum = max(maximum, x) }
        XCTAssertEqual(maximum, 0, "the strobe starts disarmed")

        var values: [Float] = []
        walkLED(try TestEngine.host(["/led/source/manual": "1", "/led/manual": "0.3"]), seconds: 0.5) { _, x in values.append(x) }
        XCTAssertEqual(values.last!, 0.3, accuracy: 1e-6)
        XCTAssertEqual(values.dropFirst(100).min()!, 0.3, accuracy: 1e-6, "manual light is steady, armed or not (after the look-ahead delay)")
    }

    func testRatesOutsideTheCapsAreDark() throws {
        for beat in ["60", "0.2"] {
            var maximum: Float = 0
            walkLED(try TestEngine.host(Self.strobe.merging(["/entrain/beat": beat, "/entrain/mode": "binaural"]) { $1 }), seconds: 6) { _, x in
                maximum = max(maximum, x)
            }
            XCTAssertEqual(maximum, 0, "\(beat) Hz must not flash")
        }
    }

    func testPanicBlacksOutWithinOnePeriod() throws {
        let host = try TestEngine.host(Self.strobe.merging(["/entrain/beat": "10", "/led/source/manual": "1", "/led/manual": "0.5"]) { $1 })
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        renderer.renderBlock(256) { _ in }
        try host.panic()
        var after: [Float] = []
        for _ in 0..<40 { renderer.renderBlock(256) { io in after += UnsafeBufferPointer(start: io[.led], count: 256) } }
        XCTAssertEqual(after.max(), 0, "dark from the first period after /panic")
        try host.resume()
        var resumed: Float = 0
        for _ in 0..<40 { renderer.renderBlock(256) { io in resumed = max(resumed, UnsafeBufferPointer(start: io[.led], count: 256).max()!) } }
        XCTAssertGreaterThan(resumed, 0.4)
    }

    func testThermalStatesCapTheLevel() {
        var model = LEDThermalModel(sampleRate: 1000, timeConstant: 1)
        XCTAssertEqual(model.cap, 1)
        for _ in 0..<5000 { model.heat(by: 0.95) }  // five time constants near full drive
        model.update(); model.update(); model.update()
        XCTAssertEqual(model.state, .critical)
        XCTAssertEqual(model.cap, 0)
        for _ in 0..<5000 { model.heat(by: 0.0) }
        model.update()
        XCTAssertEqual(model.state, .serious, "cooling steps down one state per evaluation")
        model.update(); model.update()
        XCTAssertEqual(model.state, .nominal)
        model.reported = .fair
        XCTAssertEqual(model.cap, 0.5, "a fixture's report can only make it worse")
    }
}
