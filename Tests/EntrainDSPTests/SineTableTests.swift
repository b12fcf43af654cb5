import XCTest
@testable import EntrainDSP

final class SineTableTests: XCTestCase {
    /// Within its stated error everywhere in [0, 1], the ends and every table point included
    /// (an exact point is where the rounding bias may pick the point below with a fraction of 1).
    func testWithinItsErrorOfTheSineEverywhere() {
        let sine = SineTable()
        defer { sine.deallocate() }
        var worst = 0.0
        var phases: [Double] = [0, 1, 0.5, 0.25, 0.75, 1 - 1e-16, 1e-300]
        phases += (0...SineTable.size).map { Double($0) / Double(SineTable.size) }
        // Each segment's middle, where the interpolation is furthest from the sine.
        phases += (0..<SineTable.size).map { (Double($0) + 0.5) / Double(SineTable.size) }
        var random = SystemRandomNumberGenerator()
        phases += (0..<200_000).map { _ in Double.random(in: 0...1, using: &random) }
        for turns in phases {
            worst = max(worst, abs(sine(turns) - sin(2 * .pi * turns)))
        }
        XCTAssertLessThan(worst, 1.3e-6, "the table's largest error")
        // Linear interpolation between 2048 points has an error of (2π/2048)²/8 = 1.18e-6 at
        // the middle of a segment near the sine's peaks: the table is not finer than its size.
        XCTAssertGreaterThan(worst, 1e-6, "the table's largest error")
    }
}
