import EntrainDSP
import Foundation
import XCTest

final class FastMathTests: XCTestCase {
    func testSineMatchesLibmEverywhere() {
        var worst = 0.0
        for i in 0..<200_000 {
            let turns = Double(i) * 0.000_731 - 50
            worst = max(worst, abs(FastMath.sinTurns(turns) - sin(2 * .pi * turns)))
        }
        XCTAssertLessThan(worst, 1e-9)
    }

    func testExp2AndLog2AreAccurate() {
        for i in 0..<20_000 {
            let x = Double(i) * 0.004 - 40
            let e = FastMath.exp2(x)
            XCTAssertEqual(e, Foundation.exp2(x), accuracy: Foundation.exp2(x) * 1e-12)
            XCTAssertEqual(FastMath.log2(e), x, accuracy: 1e-11)
        }
        XCTAssertEqual(FastMath.log2(0), -.infinity)
        XCTAssertTrue(FastMath.log2(-1).isNaN)
        XCTAssertEqual(FastMath.gain(fromDecibels: -6.020_599_913_279_624), 0.5, accuracy: 1e-12)
    }

    /// Over the whole range it computes (±1000; below, 0, above, infinity), where 2^whole is
    /// built from its bits.
    func testExp2HoldsOverItsWholeRange() {
        for x in stride(from: -999.99, through: 1000, by: 0.37) {
            let want = Foundation.exp2(x)
            XCTAssertEqual(FastMath.exp2(x), want, accuracy: want * 1e-12, "\(x)")
        }
        XCTAssertEqual(FastMath.exp2(1000.5), .infinity)
        XCTAssertEqual(FastMath.exp2(-1000.5), 0)
        XCTAssertEqual(FastMath.exp2(-1), 0.5)
        XCTAssertEqual(FastMath.exp2(10), 1024)
    }

    func testFloorHandlesNegativesAndIntegers() {
        for x in [-2.5, -2.0, -0.1, 0, 0.1, 1, 1.999, 123_456.7] {
            XCTAssertEqual(FastMath.floor(x), Foundation.floor(x), "\(x)")
        }
    }
}
