import Kessho
import XCTest

/// Both Bjorklund variants against the vectors the web's own functions give (x = hit).
final class KesshoEuclidTests: XCTestCase {
    func text(_ p: [Bool]) -> String { String(p.map { $0 ? "x" : "." }) }

    func testLeadVariantRotatesLeft() {
        let vectors: [(Int, Int, Int, String)] = [
            (16, 4, 0, "x...x...x...x..."), (8, 3, 0, "x..x..x."), (8, 3, 1, "..x..x.x"), (8, 5, 0, "x.xx.xx."),
            (12, 5, 0, "x..x.x..x.x."), (16, 6, 2, ".x.x..x..x.x..x."), (13, 5, 0, "x..x.x..x.x.."),
            (12, 7, 3, "x.x.xx.x.x.x"), (12, 8, 0, "x.xx.xx.xx.x"), (7, 4, 0, "x.x.x.x"),
        ]
        for (steps, hits, rotation, expected) in vectors {
            XCTAssertEqual(text(KesshoEuclid.leadPattern(steps: steps, hits: hits, rotation: rotation)), expected,
                           "lead (\(steps),\(hits),\(rotation))")
        }
        let long = KesshoEuclid.leadPattern(steps: 32, hits: 3, rotation: 0)
        XCTAssertEqual(long.indices.filter { long[$0] }, [0, 11, 22])
        XCTAssertEqual(text(KesshoEuclid.leadPattern(steps: 4, hits: 9, rotation: 0)), "xxxx")
        XCTAssertEqual(text(KesshoEuclid.leadPattern(steps: 4, hits: 0, rotation: 0)), "....")
    }

    func testDrumVariantRotatesRight() {
        let vectors: [(Int, Int, Int, String)] = [
            (16, 4, 0, "...x...x...x...x"), (8, 3, 0, ".x..x..x"), (8, 3, 1, "x.x..x.."), (8, 5, 0, "x.xx.xx."),
            (12, 5, 0, ".x.x..x.x..x"), (16, 6, 2, ".x.x..x..x.x..x."), (13, 5, 0, ".x..x.x..x.x."),
            (12, 7, 3, "xx.x.x.xx.x."), (12, 8, 0, "xx.xx.xx.xx."), (7, 4, 0, "x.x.x.x"),
        ]
        for (steps, hits, rotation, expected) in vectors {
            XCTAssertEqual(text(KesshoEuclid.drumPattern(steps: steps, hits: hits, rotation: rotation)), expected,
                           "drum (\(steps),\(hits),\(rotation))")
        }
        XCTAssertEqual(text(KesshoEuclid.drumPattern(steps: 0, hits: 3, rotation: 0)), "x", "steps ≥ 1, hits ≤ steps")
        XCTAssertEqual(text(KesshoEuclid.drumPattern(steps: 5, hits: 0, rotation: 2)), ".....")
    }

    func testLanePresetsResolveAsTheWeb() {
        XCTAssertEqual(KesshoEuclid.leadLane(preset: "kotekan", steps: 16, hits: 4, rotation: 1), .init(8, 3, 2))
        XCTAssertEqual(KesshoEuclid.leadLane(preset: "nonsense", steps: 5, hits: 2, rotation: 0), .init(16, 4, 0))
        XCTAssertEqual(KesshoEuclid.leadLane(preset: "custom", steps: 5, hits: 2, rotation: 3), .init(5, 2, 3))
        XCTAssertEqual(KesshoEuclid.drumLane(preset: "bossa", steps: 8, hits: 3, rotation: 14), .init(16, 5, 1))
        XCTAssertEqual(KesshoEuclid.drumLane(preset: "custom", steps: 8, hits: 3, rotation: 1), .init(8, 3, 1))
    }
}
