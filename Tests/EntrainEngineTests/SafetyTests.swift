import EntrainEngine
import TestSupport
import XCTest

final class SafetyTests: XCTestCase {
    /// Every voice at full level with square waves, full white noise, volume 1: the output
    /// still never passes the ceiling, and the limiter's gain path (not its clamp) holds it.
    func testWorstCaseSettingsNeverExceedTheCeiling() throws {
        for ceiling in [-1.0, -12.0] {
            var settings = ["/entrain/volume": "1", "/entrain/noise": "white", "/entrain/noise/level": "1",
                            "/master/ceiling": "\(ceiling)", "/entrain/waveform": "square"]
            for v in 2...10 {
                settings["/entrain/voice/\(v)/level"] = "1"
                settings["/entrain/voice/\(v)/carrier"] = "\(100 * v + 37)"
                settings["/entrain/voice/\(v)/waveform"] = ["square", "saw", "triangle"][v % 3]
            }
            let host = try TestEngine.host(settings)
            let (l, r) = TestEngine.render(host, seconds: 5)
            let limit = Float(pow(10, ceiling / 20))
            XCTAssertLessThanOrEqual(max(Measure.peak(l), Measure.peak(r)), limit)
            XCTAssertGreaterThan(Measure.peak(l), limit * 0.9, "the input must really be over the ceiling")
        }
    }

    func testCeilingCannotBeRaisedToFullScale() {
        XCTAssertThrowsError(try TestEngine.host(["/master/ceiling": "0"]))
        XCTAssertThrowsError(try TestEngine.host(["/master/ceiling": "6"]))
    }
}
