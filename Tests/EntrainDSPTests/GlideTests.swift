import EntrainDSP
import XCTest

final class GlideTests: XCTestCase {
    func testLinearGlideLandsExactlyOnTime() {
        var glide = Glide(100)
        glide.move(to: 200, frames: 1000)
        var values: [Double] = []
        for _ in 0..<1001 { values.append(glide.next()) }
        XCTAssertEqual(values[0], 100)
        XCTAssertEqual(values[500], 150, accuracy: 1e-9)
        XCTAssertEqual(values[1000], 200)  // exactly the target, no rounding drift
        XCTAssertFalse(glide.isMoving)
    }

    func testExponentialGlidePassesTheGeometricMean() {
        var glide = Glide(100)
        glide.move(to: 400, frames: 1000, exponential: true)
        var values: [Double] = []
        for _ in 0..<1001 { values.append(glide.next()) }
        XCTAssertEqual(values[500], 200, accuracy: 1e-6)  // sqrt(100·400)
        XCTAssertEqual(values[1000], 400)
    }

    func testExponentialFallsBackToLinearThroughZero() {
        var glide = Glide(0)
        glide.move(to: 1, frames: 10, exponential: true)
        var values: [Double] = []
        for _ in 0..<11 { values.append(glide.next()) }
        XCTAssertEqual(values[5], 0.5, accuracy: 1e-12)
    }

    func testCrossfadeWeightsSumToOne() {
        var fade = ChoiceCrossfade(selected: 0)
        fade.select(2, frames: 100)
        for _ in 0..<50 { fade.advance() }
        fade.select(1, frames: 100)  // change of mind half-way
        for _ in 0..<150 {
            fade.advance()
            let sum = fade.current[0] + fade.current[1] + fade.current[2] + fade.current[3]
            XCTAssertEqual(sum, 1, accuracy: 1e-5)
        }
        XCTAssertEqual(fade.current[1], 1)
        XCTAssertFalse(fade.isMoving)
    }
}
