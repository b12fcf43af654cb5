import EntrainFiles
import XCTest
@testable import Kessho

/// Presets written to break the engine: every value is brought into its range at load, with a
/// warning that says where it was written; nesting is capped like every JSON reader's.
final class KesshoHostilePresetTests: XCTestCase {
    func load(_ text: String) throws -> KesshoPresetLoadResult { try KesshoPresetLoader.load(Array(text.utf8)) }

    func testAHugeRootNoteIsClampedWithItsPositionAndTheHarmonyRuns() throws {
        let r = try load("{ \"name\": \"x\", \"state\": {\n  \"tension\": 0.5,\n  \"rootNote\": 1e308 } }")
        XCTAssertEqual(r.preset.state.number("rootNote"), 11)
        XCTAssertTrue(r.warnings.contains("line 3, column 3: rootNote=1e+308 clamped to 11"), "\(r.warnings)")
        // What used to trap (Int(1e308)) on /ambient/play or a render.
        var driver = KesshoHarmonyDriver(bucket: "b", state: r.preset.state)
        XCTAssertEqual(driver.effectiveRoot(r.preset.state), 11)
        driver.phraseBoundary(phraseIndex: 1, state: r.preset.state) { 0.5 }
        XCTAssertFalse(driver.harmony.chord.frequencies.isEmpty)
        XCTAssertTrue(driver.harmony.chord.frequencies.allSatisfy(\.isFinite))
    }

    /// Whatever reaches the state (a `.keep` load, a morph), turning it into a key never traps.
    func testAnyNumberMapsToAPitchClass() {
        for root in [Double.infinity, -.infinity, .nan, 1e308, -1e308, 4.4] {
            XCTAssertTrue((0..<12).contains(KesshoCircleOfFifths.pitchClass(root)), "\(root)")
        }
        XCTAssertEqual(KesshoCircleOfFifths.pitchClass(-1), 11)
    }

    func testRootNoteIsAWholePitchClass() throws {
        let r = try load(#"{ "state": { "rootNote": 4.6, "cofCurrentStep": -40, "drumEuclidDivision": 1e9 } }"#)
        XCTAssertEqual(r.preset.state.number("rootNote"), 5)
        XCTAssertTrue(r.warnings.contains { $0.hasSuffix("rootNote=4.6 is not a whole number, rounded to 5") }, "\(r.warnings)")
        XCTAssertEqual(try load(#"{ "state": { "rootNote": -3 } }"#).preset.state.number("rootNote"), 0)
        XCTAssertEqual(r.preset.state.number("drumEuclidDivision"), 64)
    }

    /// Every numeric key, set to ±1e308, loads inside its range (or at its own default).
    func testEveryNumberIsBroughtIntoItsRange() throws {
        let numeric = KesshoParameters.all.filter { if case .number = $0.kind { return true }; return false }
        XCTAssertGreaterThan(numeric.count, 280)
        for extreme in [1e308, -1e308] {
            let members = numeric.map { "\"\($0.key)\": \(extreme)" }.joined(separator: ", ")
            let state = try load("{ \"state\": { \(members) } }").preset.state
            for p in numeric {
                let v = try XCTUnwrap(state.number(p.key), p.key)
                let range = try XCTUnwrap(p.loadRange, "\(p.key) has no range to check against")
                XCTAssertTrue(range.contains(v) || p.defaultValue == .number(v), "\(p.key)=\(v) outside \(range)")
            }
        }
    }

    func testDualRangesAreFiniteOrderedAndInsideTheirKeysRange() throws {
        let text = """
        { "state": {}, "dualRanges": {
            "grainSize": { "min": -1e308, "max": 1e308 },
            "tension": { "min": 0.9, "max": 0.1 },
            "zzUnknown": { "min": 1, "max": 2 } },
          "sliderModes": { "grainSize": "walk", "tension": "walk" } }
        """
        let r = try load(text)
        let bounds = try XCTUnwrap(KesshoParameters.parameter("grainSize")?.range)
        XCTAssertEqual(r.preset.dualRanges["grainSize"], KesshoDualRange(min: bounds.lowerBound, max: bounds.upperBound))
        XCTAssertNil(r.preset.dualRanges["tension"])
        XCTAssertEqual(r.preset.dualRanges["zzUnknown"], KesshoDualRange(min: 1, max: 2))
        XCTAssertTrue(r.warnings.contains { $0.hasPrefix("line 2, column 5: dualRanges.grainSize clamped to") }, "\(r.warnings)")
        XCTAssertTrue(r.warnings.contains { $0.hasPrefix("line 3, column 5: dualRanges.tension {0.9, 0.1} is not a finite min ≤ max") }, "\(r.warnings)")
        // Legacy min/max pairs that overflow their midpoint take the default.
        let legacy = try load(#"{ "state": { "grainSizeMin": 1e308, "grainSizeMax": 1.7e308 } }"#)
        XCTAssertTrue(bounds.contains(try XCTUnwrap(legacy.preset.state.number("grainSize"))))
    }

    func testNestingDeeperThanTheSharedLimitIsAnErrorAtItsPosition() throws {
        let limit = InputLimits.jsonDepth
        let fits = "{\"state\": {\"x\": " + String(repeating: "[", count: limit - 2) + String(repeating: "]", count: limit - 2) + "}}"
        XCTAssertNoThrow(try KesshoJSONParser.parse(Array(fits.utf8)))
        for depth in [limit - 1, 100_000] {  // two objects, then arrays: one level too many
            let text = "{\"state\": {\"x\": " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
            XCTAssertThrowsError(try KesshoPresetLoader.load(Array(text.utf8))) { error in
                XCTAssertEqual("\(error)", "malformed preset: JSON error at line 1, column \(16 + limit - 1): nested more than \(limit) deep")
            }
        }
    }

    func testAnAbsurdTimestampBecomesNow() throws {
        let r = try load(#"{ "timestamp": 1e308, "state": {} }"#)
        XCTAssertTrue(r.warnings.contains("the timestamp is outside JavaScript's dates: the load time is used"), "\(r.warnings)")
        XCTAssertTrue(r.preset.timestamp.hasPrefix("20"), r.preset.timestamp)
    }

    func testUnreadableFilesAreSaidInWords() {
        let missing = URL(fileURLWithPath: "/nonexistent-\(getpid())/x.json")
        XCTAssertThrowsError(try KesshoPresetLoader.load(contentsOf: missing)) { XCTAssertEqual("\($0)", "\(missing.path): no such file") }
        XCTAssertThrowsError(try KesshoPresetLoader.load(contentsOf: URL(fileURLWithPath: "/tmp"), label: "tmp")) {
            XCTAssertEqual("\($0)", "tmp: is a folder, not a file")
        }
    }
}
