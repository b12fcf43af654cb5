@testable import EntrainControl
import TestSupport
import XCTest

/// The pixel outputs' flash safety, measured on its output by the definition (TestSupport's
/// FlashMeasure, written apart from the guard): disarmed no channel flashes more than 3 times a
/// second, armed at most a quarter of the pixels do; slow light passes untouched.
final class FlashGuardTests: XCTestCase {
    /// `seconds` of frames at `rate` of every pixel's three channels following `level(time, pixel)`,
    /// through a guard; the frames as sent.
    func run(pixels: Int, rate: Double = 50, seconds: Double = 4, armed: Bool,
             _ level: (Double, Int) -> UInt8) -> [(time: Double, bytes: [UInt8])] {
        var guardian = FlashGuard(pixels: pixels, channels: 3)
        return (0..<Int(seconds * rate)).map { n in
            let t = Double(n) / rate
            var frame = (0..<pixels).flatMap { p in [UInt8](repeating: level(t, p), count: 3) }
            guardian.apply(&frame, at: t, armed: armed)
            return (t, frame)
        }
    }

    /// A square wave between 0 and 255 at `hz`.
    func square(_ hz: Double) -> (Double, Int) -> UInt8 { { t, _ in (t * hz).truncatingRemainder(dividingBy: 1) < 0.5 ? 255 : 0 } }

    func testDisarmedA10HzFlashIsHeldToThreeFlashesASecondAndWithinEightLevels() {
        let frames = run(pixels: 20, armed: false, square(10))
        let measure = FlashMeasure(frames: frames, pixels: 20, channels: 3)
        XCTAssertLessThanOrEqual(measure.mostPerSecond, 6, "at most 6 transitions (3 flashes) in any second")
        XCTAssertGreaterThan(measure.total, 0, "the light still moves")
        // Between its allowed transitions the pixel stays within 8 of where it turned.
        let held = zip(frames, frames.dropFirst()).filter { $0.1.bytes[0] != 0 && $0.1.bytes[0] != 255 }
        XCTAssertFalse(held.isEmpty, "turns refused were held 8 levels short")
        XCTAssertTrue(held.allSatisfy { [8, 247].contains($0.1.bytes[0]) }, "held at 8 or 247")
    }

    func testSlowLightPassesUnchanged() {
        let slow = square(1.5)  // 3 transitions a second
        let frames = run(pixels: 10, armed: false, slow)
        for f in frames { XCTAssertEqual(f.bytes[0], slow(f.time, 0), "at \(f.time) s") }
        let rising: (Double, Int) -> UInt8 = { t, p in UInt8(min(255, t * 60 + Double(p))) }
        let ramp = run(pixels: 4, armed: false, rising)
        XCTAssertTrue(ramp.allSatisfy { $0.bytes[3] == rising($0.time, 1) }, "a rising ramp is never held")
    }

    func testArmedAtMostAQuarterOfThePixelsFlashAtOnceAndThoseFlashFreely() {
        let pixels = 100
        let frames = run(pixels: pixels, seconds: 5, armed: true, square(10))
        let measure = FlashMeasure(frames: frames, pixels: pixels, channels: 3)
        let most = stride(from: 1.0, to: 5, by: 0.02).map(measure.flashing(at:)).max() ?? 0
        XCTAssertLessThanOrEqual(most, 25, "a quarter of 100 pixels")
        XCTAssertEqual(most, 25, "and the quarter is used")
        let free = (0..<pixels).filter { p in frames.allSatisfy { $0.bytes[p * 3] == square(10)($0.time, p) } }
        XCTAssertEqual(free.count, 25, "the pixels with a place flash as asked")
    }

    func testDarknessIsAlwaysAllowed() {
        var guardian = FlashGuard(pixels: 1, channels: 3)
        var frames: [[UInt8]] = []
        for n in 0..<100 {
            var frame: [UInt8] = n % 5 < 2 ? [255, 255, 255] : [0, 0, 0]
            guardian.apply(&frame, at: Double(n) / 50, armed: false, force: n % 5 >= 2)
            frames.append(frame)
        }
        XCTAssertTrue(frames.enumerated().allSatisfy { $0.offset % 5 < 2 || $0.element == [0, 0, 0] }, "a forced black frame is black")
    }
}
