import XCTest
@testable import Kessho

final class KesshoParametersTests: XCTestCase {
    func testCountAndUniqueness() {
        XCTAssertEqual(KesshoParameters.all.count, 403)
        XCTAssertEqual(Set(KesshoParameters.all.map(\.key)).count, 403)
        XCTAssertEqual(KesshoParameters.all.filter { $0.key.hasPrefix("drum") }.count, 249)
        XCTAssertEqual(KesshoState.defaults.count, 403)
        XCTAssertEqual(KesshoParameters.all.first?.key, "masterVolume")
        XCTAssertEqual(KesshoParameters.all.last?.key, "randomWalkSpeed")
    }

    /// Keys whose web default lies outside the quantiser range (the web has the same mismatch).
    static let defaultOutOfRange: Set<String> = ["drumNoiseAttack"]  // 0.1..5000, default 0
    /// Keys whose web default lies off the quantiser's step grid.
    static let defaultOffGrid: Set<String> = ["leadDelayTime"]  // step 10, default 375

    func testDefaultsInRangeAndOnGrid() {
        for p in KesshoParameters.all {
            switch p.kind {
            case .number(let range, let step):
                guard let v = p.defaultValue.number else { XCTFail("\(p.key) default not a number"); continue }
                guard let range, let step else { continue }
                if Self.defaultOutOfRange.contains(p.key) {
                    XCTAssertFalse(range.contains(v), "\(p.key) listed as out of range but is not")
                    continue
                }
                XCTAssertTrue(range.contains(v), "\(p.key)=\(v) outside \(range)")
                // The web snaps to multiples of the step from 0, not from min.
                let k = v / step
                let onGrid = abs(k - k.rounded()) < 1e-9
                XCTAssertEqual(onGrid, !Self.defaultOffGrid.contains(p.key), "\(p.key)=\(v) grid \(step)")
            case .bool: XCTAssertNotNil(p.defaultValue.bool, p.key)
            case .choice(let options):
                XCTAssertTrue(options.contains(p.defaultValue.string ?? ""), "\(p.key) default not an option")
            case .text: XCTAssertNotNil(p.defaultValue.string, p.key)
            }
            XCTAssertFalse(p.section.isEmpty)
        }
    }

    func testSpotChecks() {
        func num(_ k: String) -> (ClosedRange<Double>?, Double?, Double?) {
            let p = KesshoParameters.parameter(k)!
            return (p.range, p.step, p.defaultValue.number)
        }
        XCTAssertTrue(num("granularLevel") == (0...2, 0.01, 0.4))
        XCTAssertTrue(num("synthAttack") == (0.01...16, 0.01, 6))
        XCTAssertTrue(num("synthRelease") == (0.01...30, 0.01, 12))
        XCTAssertTrue(num("waveSpread") == (0...30, 0.5, 4))
        XCTAssertTrue(num("chordRate") == (8...64, 1, 32))
        XCTAssertTrue(num("filterCutoffMin") == (40...8000, 10, 400))
        XCTAssertTrue(num("feedback") == (0...0.35, 0.01, 0.1))
        XCTAssertTrue(num("wetLPF") == (3000...12000, 200, 8000))
        XCTAssertTrue(num("lead1Attack") == (0.001...2, 0.001, 0.01))
        XCTAssertTrue(num("drumSubDecay") == (20...15000, 1, 150))
        XCTAssertTrue(num("drumBeepHiModRatioFine") == (-0.5...0.5, 0.01, 0.01))
        XCTAssertTrue(num("drumEuclid3Steps") == (2...32, 1, 12))
        XCTAssertTrue(num("leadEuclid4NoteMin") == (36...96, 1, 88))
        XCTAssertTrue(num("oceanInterval") == (3...20, 0.5, 8.5))
        XCTAssertTrue(num("rootNote") == (nil, nil, 4))
        XCTAssertTrue(num("cofCurrentStep") == (nil, nil, 0))
        XCTAssertTrue(num("drumEuclidDivision") == (nil, nil, 8))
        XCTAssertEqual(KesshoParameters.parameter("seedWindow")?.kind, .choice(["hour", "day"]))
        XCTAssertEqual(KesshoParameters.parameter("reverbType")?.defaultValue, .string("cathedral"))
        XCTAssertEqual(KesshoParameters.parameter("leadEuclid1Source")?.kind,
                       .choice(["lead", "lead1", "lead2", "synth1", "synth2", "synth3", "synth4", "synth5", "synth6"]))
        XCTAssertEqual(KesshoParameters.parameter("drumKickPresetA")?.defaultValue, .string("Ikeda Kick"))
        XCTAssertEqual(KesshoParameters.parameter("drumEuclid2TargetBeepHi")?.defaultValue, .bool(true))
        XCTAssertEqual(KesshoParameters.parameter("synthChordSequencerEnabled")?.defaultValue, .bool(true))
        XCTAssertEqual(KesshoParameters.parameter("manualScale")?.defaultValue, .string("Major (Ionian)"))
        XCTAssertEqual(KesshoParameters.parameter("masterVolume")?.meaning, "master GainNode before limiter")
    }

    func testQuantize() {
        let p = KesshoParameters.parameter("waveSpread")!
        XCTAssertEqual(p.quantize(4.3), 4.5)
        XCTAssertEqual(p.quantize(-1), 0)
        XCTAssertEqual(p.quantize(99), 30)
    }
}
