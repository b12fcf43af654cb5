import EntrainDSP
import Foundation
import XCTest

final class FastTanhTests: XCTestCase {
    /// Within 4e-7 of tanh from −20 to 20 (the clamp at ±7.905 included), odd, and bounded by 1.
    func testCloseToTanhEverywhere() {
        var worst: Float = 0
        for i in 0...400_000 {
            let x = Float(i) * 1e-4 - 20
            let y = FastTanh.tanh(SIMD2(x, -x))
            worst = max(worst, abs(y[0] - Float(Foundation.tanh(Double(x)))))
            XCTAssertEqual(y[1], -y[0])
            XCTAssertLessThanOrEqual(abs(y[0]), 1)
        }
        XCTAssertLessThan(worst, 4e-7)
        XCTAssertEqual(FastTanh.tanh(.zero), .zero)
    }
}
