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
        // Both sides of 2^51, where it leaves the rounding bias for the conversion.
        let edge = 2_251_799_813_685_248.0
        var xs = [-2.5, -2.0, -0.1, -0.0, 0, 0.1, 1, 1.999, 123_456.7, 0.5, 1.5, 2.5, -0.5, -1.5,
                  edge - 0.5, edge, edge + 1, -edge + 0.5, -edge, 1e17 + 64, -1e17]
        var random = SystemRandomNumberGenerator()
        xs += (0..<100_000).map { _ in Double.random(in: -1e6...1e6, using: &random) }
        for x in xs {
            XCTAssertEqual(FastMath.floor(x), Foundation.floor(x), "\(x)")
        }
    }

    /// A table read's point and fraction: ⌊x⌋ and x − ⌊x⌋, or at an exact odd integer the point
    /// below with a fraction of 1 (the same place on the line).
    func testSplitGivesThePointBelowAndTheFraction() {
        var random = SystemRandomNumberGenerator()
        let xs = (0..<100_000).map { _ in Double.random(in: 0..<4096, using: &random) } + [0, 0.5, 4095.999_999_9, 1e9 + 0.25]
        for x in xs {
            let (whole, fraction) = FastMath.split(x)
            XCTAssertEqual(whole, Int(x), "\(x)")
            XCTAssertEqual(fraction, x - Foundation.floor(x), "\(x)")
        }
        for k in 0...4096 {
            let (whole, fraction) = FastMath.split(Double(k))
            XCTAssertEqual(Double(whole) + fraction, Double(k), "\(k)")
            XCTAssertTrue(k % 2 == 0 ? whole == k && fraction == 0 : whole == k - 1 && fraction == 1, "\(k): \(whole), \(fraction)")
        }
    }
}
