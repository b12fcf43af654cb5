@testable import EntrainControl
import XCTest

/// Each pixel output's own thermal model: the frames it sends heat it as the LED fixture's
/// drive heats the LED's, with the same states and caps.
final class PixelHeatTests: XCTestCase {
    func output(fps: Int = 50) throws -> PixelOutput {
        let spec = try XCTUnwrap(PixelRig.parse(#"[{"name": "s", "pixels": 30, "protocol": "ddp", "target": "127.0.0.1", "fps": \#(fps)}]"#).first)
        return PixelOutput(PixelFamily(spec))
    }

    /// Sends `seconds` of frames with every channel at `value`; returns the cap after each second.
    func send(_ output: inout PixelOutput, value: UInt8, seconds: Int, fps: Int = 50) -> [Float] {
        var caps: [Float] = []
        for _ in 0..<seconds {
            for _ in 0..<fps { output.account([UInt8](repeating: value, count: 90)) }
            caps.append(output.heat.cap)
        }
        return caps
    }

    func testAStripHeldFullWhiteIsCappedAfterAboutAMinuteAndRecoversWhenDimmer() throws {
        var strip = try output()
        let caps = send(&strip, value: 255, seconds: 150)
        // A 60 s time constant: 0.6 of full drive after 55 s, 0.75 after 83 s, 0.9 after 138 s.
        XCTAssertEqual(caps.firstIndex(of: 0.5).map { $0 + 1 } ?? 0, 55, accuracy: 2, "fair after about 55 s")
        XCTAssertEqual(caps.firstIndex(of: 0.1).map { $0 + 1 } ?? 0, 84, accuracy: 2, "serious after about 83 s")
        XCTAssertEqual(caps.firstIndex(of: 0).map { $0 + 1 } ?? 0, 139, accuracy: 2, "critical after about 138 s")
        let cooling = send(&strip, value: 0, seconds: 120)
        XCTAssertEqual(cooling.last, 1, "dark for two minutes: nominal again")
    }

    func testHalfBrightnessNeverTrips() throws {
        var strip = try output(fps: 40)
        XCTAssertEqual(Set(send(&strip, value: 128, seconds: 600, fps: 40)), [1], "a strip at its default brightness is never capped")
    }
}
