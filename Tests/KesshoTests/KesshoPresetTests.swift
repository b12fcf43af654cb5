import XCTest
@testable import Kessho

final class KesshoPresetTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/fixtures/kessho-presets").standardizedFileURL

    static var presetFiles: [URL] {
        let fm = FileManager.default
        var out: [URL] = []
        for dir in [fixtures, fixtures.appendingPathComponent("ios")] {
            let names = (try? fm.contentsOfDirectory(atPath: dir.path)) ?? []
            out += names.filter { $0.hasSuffix(".json") && $0 != "manifest.json" }.sorted().map { dir.appendingPathComponent($0) }
        }
        return out
    }

    func testEveryFixtureLoads() throws {
        let files = Self.presetFiles
        XCTAssertEqual(files.count, 14, "5 web presets + 9 iOS presets expected under \(Self.fixtures.path)")
        for url in files {
            let r = try KesshoPresetLoader.load(contentsOf: url)
            let label = url.pathComponents.suffix(2).joined(separator: "/")
            print("[\(label)] \"\(r.preset.name)\": \(r.preset.state.count) keys (\(r.preset.state.unknownKeys.count) unknown), "
                  + "\(r.preset.dualRanges.count) ranges, \(r.warnings.count) warnings")
            for w in r.warnings { print("    - \(w)") }
            XCTAssertGreaterThanOrEqual(r.preset.state.count, 403, label)
            XCTAssertEqual(Array(r.preset.state.keys.prefix(403)), KesshoParameters.all.map(\.key), label)
            XCTAssertEqual(r.preset.dualRanges.keys.sorted(), r.preset.sliderModes.keys.filter { r.preset.dualRanges[$0] != nil }.sorted(), label)
        }
    }

    func testTrailingCommaPresetsWarn() throws {
        for (name, line) in [("WaveOut", 133), ("ZoneOutTest", 134), ("ZoneOutTest2", 134)] {
            let r = try KesshoPresetLoader.load(contentsOf: Self.fixtures.appendingPathComponent("ios/\(name).json"))
            XCTAssertEqual(r.warnings.first, "trailing comma at line \(line), column 29 ignored", name)
        }
    }

    func testStringWavesDetails() throws {
        let r = try KesshoPresetLoader.load(contentsOf: Self.fixtures.appendingPathComponent("StringWavesR.json"))
        let p = r.preset
        XCTAssertEqual(p.name, "String Waves")
        XCTAssertEqual(p.timestamp, "2026-02-14T00:00:00.000Z")
        XCTAssertEqual(p.state.number("masterVolume"), 0.5700000000000001)  // float noise kept bit-exact
        XCTAssertEqual(p.state.bool("cofDriftEnabled"), true)
        XCTAssertEqual(p.state.unknownKeys.count, 18)  // §3.4: 18 unknown keys
        XCTAssertEqual(p.dualRanges.count, 19)
        XCTAssertEqual(p.sliderModes.count, 19)  // 9 written + 10 inferred as walk
        XCTAssertTrue(KesshoStateJSON.stringify(p.state).contains(#""masterVolume":0.5700000000000001,"#))
    }

    /// §3.4 key counts: state keys present (missing vs defaults / unknown) for the web presets.
    func testWebPresetKeyCounts() throws {
        let expected: [String: (unknown: Int, ranges: Int, modesInFile: Int)] = [
            "Gamelantest": (11, 6, 6), "Lasers": (11, 11, 11), "Static_frequencies": (11, 13, 6),
            "StringWavesR": (18, 19, 9), "ZoneOut1": (19, 18, 8),
        ]
        for (file, e) in expected {
            let p = try KesshoPresetLoader.load(contentsOf: Self.fixtures.appendingPathComponent("\(file).json")).preset
            XCTAssertEqual(p.state.unknownKeys.count, e.unknown, file)
            XCTAssertEqual(p.state.count, 403 + e.unknown, file)
            XCTAssertEqual(p.dualRanges.count, e.ranges, file)
        }
    }

    func testRoundTripKeepsEverything() throws {
        for url in Self.presetFiles {
            let first = try KesshoPresetLoader.load(contentsOf: url).preset
            let saved = KesshoPresetWriter.json(first)
            let second = try KesshoPresetLoader.load(Array(saved.utf8)).preset
            let name = url.lastPathComponent
            for key in Set(first.state.keys).union(second.state.keys) where first.state[key] != second.state[key] {
                XCTFail("\(name): \(key) \(String(describing: first.state[key])) → \(String(describing: second.state[key]))")
            }
            XCTAssertEqual(second.dualRanges, first.dualRanges, name)
            XCTAssertEqual(second.sliderModes, first.sliderModes, name)
            XCTAssertEqual(second.name, first.name, name)
            XCTAssertEqual(second.timestamp, first.timestamp, name)
            XCTAssertEqual(second.state.keys, first.state.keys, url.lastPathComponent)
            XCTAssertTrue(KesshoPresetWriter.json(second) == saved, name)
        }
    }

    func testWriterFormat() {
        var s = KesshoState()
        s["a"] = .number(1); s["b"] = .string("x")
        var ranges = KesshoOrderedMap<KesshoDualRange>(); ranges["a"] = KesshoDualRange(min: 0.1, max: 2)
        var modes = KesshoOrderedMap<KesshoSliderMode>(); modes["a"] = .walk
        let p = KesshoPreset(name: "N", timestamp: "2026-01-01T00:00:00.000Z", state: s, dualRanges: ranges, sliderModes: modes)
        XCTAssertEqual(KesshoPresetWriter.json(p), """
        {
          "name": "N",
          "timestamp": "2026-01-01T00:00:00.000Z",
          "state": {
            "a": 1,
            "b": "x"
          },
          "dualRanges": {
            "a": {
              "min": 0.1,
              "max": 2
            }
          },
          "sliderModes": {
            "a": "walk"
          }
        }
        """)
        let bare = KesshoPreset(name: "Static frequencies ", timestamp: "t", state: KesshoState())
        XCTAssertEqual(KesshoPresetWriter.json(bare), "{\n  \"name\": \"Static frequencies \",\n  \"timestamp\": \"t\",\n  \"state\": {}\n}")
        XCTAssertEqual(bare.suggestedFileName, "Static_frequencies_.json")
    }

    func testMalformedJSONHasPosition() {
        let text = "{\n  \"name\": \"x\",\n  \"state\": {\"a\": 1 \"b\": 2}\n}"
        XCTAssertThrowsError(try KesshoPresetLoader.load(Array(text.utf8))) { error in
            guard case KesshoPresetError.malformedJSON(let e) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.line, 3)
            XCTAssertEqual(e.column, 20)
            XCTAssertEqual(e.message, "expected ',' or '}' in object")
            XCTAssertEqual("\(error)", "malformed preset: JSON error at line 3, column 20: expected ',' or '}' in object")
        }
        XCTAssertThrowsError(try KesshoPresetLoader.load(Array("{\"state\": {\"a\": tru}}".utf8))) { error in
            guard case KesshoPresetError.malformedJSON(let e) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.offset, 16)
        }
        XCTAssertThrowsError(try KesshoPresetLoader.load(Array("[1,2]".utf8))) { XCTAssertEqual($0 as? KesshoPresetError, .notAnObject) }
        XCTAssertThrowsError(try KesshoPresetLoader.load(Array("{\"state\": {".utf8)))
    }

    func testMigrationAndSanitising() throws {
        let text = """
        {"name": "m", "timestamp": "2026-01-01T00:00:00.000Z", "state": {
          "zzUnknown": "keep me", "tension": "0.7", "detune": 99, "leadEnabled": "yes",
          "grainSizeMin": 40, "grainSizeMax": 120, "oceanFoamMin": 0.3, "oceanFoamMax": 0.3,
          "leadTimbreMin": 0.2, "leadTimbreMax": 0.6, "leadAttack": 0.5, "reverbType": "largeHall2",
          "lead1PresetA": "", "granularLevel": 0, "cofCurrentStep": 3, "aaUnknown": 2,
        }, "dualRanges": {"drumKickMorph": {"min": 0.1, "max": 0.9}}}
        """
        let r = try KesshoPresetLoader.load(Array(text.utf8))
        let s = r.preset.state
        XCTAssertEqual(s.unknownKeys, ["zzUnknown", "aaUnknown"])
        XCTAssertEqual(s.string("zzUnknown"), "keep me")
        XCTAssertEqual(s.number("tension"), 0.7)
        XCTAssertEqual(s.number("detune"), 25)  // clamped
        XCTAssertEqual(s.bool("leadEnabled"), false)  // not a boolean → default
        XCTAssertEqual(s.number("leadLevel"), 0)
        XCTAssertEqual(s.number("grainSize"), 80)
        XCTAssertEqual(r.preset.dualRanges["grainSize"], KesshoDualRange(min: 40, max: 120))
        XCTAssertEqual(r.preset.sliderModes["grainSize"], .sampleHold)
        XCTAssertEqual(s.number("oceanFoam"), 0.3)
        XCTAssertNil(r.preset.dualRanges["oceanFoam"])
        XCTAssertNil(s["grainSizeMin"]); XCTAssertNil(s["leadTimbreMax"])
        XCTAssertEqual(s.number("leadTimbre"), 0.4)
        XCTAssertEqual(s.number("lead1Morph")!, 0.4, accuracy: 1e-12)
        XCTAssertEqual(s.number("lead1Attack"), 0.5); XCTAssertNil(s["leadAttack"])
        XCTAssertEqual(s.bool("lead1UseCustomAdsr"), true)
        XCTAssertEqual(s.string("reverbType"), "hall")
        XCTAssertEqual(s.string("lead1PresetA"), "soft_rhodes")
        XCTAssertEqual(s.bool("granularEnabled"), false)
        XCTAssertEqual(s.number("cofCurrentStep"), 0)
        XCTAssertEqual(r.preset.sliderModes["drumKickMorph"], .sampleHold)
        XCTAssertTrue(r.warnings.contains("trailing comma at line 5, column 78 ignored"), "\(r.warnings)")
    }

    func testRangePolicies() throws {
        let text = Array(#"{"name":"r","timestamp":"t","state":{"detune":99,"masterVolume":-1}}"#.utf8)
        var o = KesshoPresetLoadOptions()
        o.rangePolicy = .keep
        XCTAssertEqual(try KesshoPresetLoader.load(text, options: o).preset.state.number("detune"), 99)
        o.rangePolicy = .reject
        XCTAssertEqual(try KesshoPresetLoader.load(text, options: o).preset.state.number("masterVolume"), 0.7)
        // The web's own out-of-range default (drumNoiseAttack 0, range 0.1…5000) is never clamped.
        let d = Array(#"{"name":"r","timestamp":"t","state":{"drumNoiseAttack":0}}"#.utf8)
        XCTAssertEqual(try KesshoPresetLoader.load(d).preset.state.number("drumNoiseAttack"), 0)
    }

    func testBareStateAndFallbacks() throws {
        let r = try KesshoPresetLoader.load(Array(#"{"tension": 0.9, "tension": 0.1, "odd": true}"#.utf8), fileName: "Bare")
        XCTAssertEqual(r.preset.name, "Bare")
        XCTAssertEqual(r.preset.state.number("tension"), 0.1)  // duplicate key: last value wins, as JSON.parse
        XCTAssertEqual(r.preset.state.unknownKeys, ["odd"])
        XCTAssertTrue(r.warnings.contains("no \"state\": treating the whole object as a bare state"))
        let ts = try KesshoPresetLoader.load(Array(#"{"timestamp": 1770040800123, "state": {}}"#.utf8)).preset
        XCTAssertEqual(ts.timestamp, "2026-02-02T14:00:00.123Z")
        XCTAssertEqual(ts.name, "Untitled")
    }

    /// Unknown keys follow the 403 known ones in file order, and so appear in the hashed state JSON.
    func testUnknownKeysKeepFileOrderInStateJSON() throws {
        let url = Self.fixtures.appendingPathComponent("ZoneOut1.json")
        let bytes = Array(try Data(contentsOf: url))
        let p = try KesshoPresetLoader.load(bytes).preset
        guard case .object(let members)? = try KesshoJSONParser.parse(bytes).value["state"] else { return XCTFail() }
        let fileUnknown = members.map(\.key).filter { KesshoParameters.index[$0] == nil }
        XCTAssertEqual(p.state.unknownKeys, fileUnknown)
        XCTAssertEqual(Array(p.state.keys.suffix(fileUnknown.count)), fileUnknown)
        let json = KesshoStateJSON.stringify(p.state)
        XCTAssertTrue(json.contains("\"randomWalkSpeed\":" ), json)
        XCTAssertTrue(json.hasSuffix(KesshoStateJSON.quote(fileUnknown.last!) + ":" + KesshoStateJSON.stringify(p.state[fileUnknown.last!]!) + "}"))
    }
}
