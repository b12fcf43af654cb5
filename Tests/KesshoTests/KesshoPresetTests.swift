import TestSupport
import XCTest
@testable import Kessho

/// Preset loading, migration and writing. Our own presets (presets/ambient, written in the web's
/// format, and Tests/Fixtures/kessho: a lead-only preset, unknown keys, the old flat iOS format)
/// cover the loader; the Kessho app's originals, when beside the checkout, too.
final class KesshoPresetTests: XCTestCase {
    static let ownFolder = Fixtures.ours("kessho")

    static var ownFiles: [URL] {
        Fixtures.files(in: Fixtures.shippedAmbientPresets, suffix: "json") + Fixtures.files(in: ownFolder, suffix: "json")
    }

    static func peers() throws -> URL {
        guard let folder = Fixtures.peers("kessho-presets") else { throw XCTSkip(Fixtures.peersAbsent("kessho-presets")) }
        return folder
    }

    static func peerFiles() throws -> [URL] {
        let folder = try peers()
        return (Fixtures.files(in: folder, suffix: "json") + Fixtures.files(in: folder.appendingPathComponent("ios"), suffix: "json"))
            .filter { $0.lastPathComponent != "manifest.json" }
    }

    /// Every file loads to the 403 keys in the web's order, each dual range with a slider mode.
    func checkEveryFileLoads(_ files: [URL]) throws {
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

    /// Load → write → load keeps every key, value, range and mode, and writes the same bytes again.
    func checkRoundTrip(_ files: [URL]) throws {
        for url in files {
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
            XCTAssertEqual(second.state.keys, first.state.keys, name)
            XCTAssertTrue(KesshoPresetWriter.json(second) == saved, name)
        }
    }

    /// Unknown keys follow the 403 known ones in file order, and so appear in the hashed state JSON.
    func checkUnknownKeysKeepFileOrder(_ url: URL) throws {
        let bytes = Array(try Data(contentsOf: url))
        let p = try KesshoPresetLoader.load(bytes).preset
        guard case .object(let members)? = try KesshoJSONParser.parse(bytes).value["state"] else { return XCTFail() }
        let fileUnknown = members.map(\.key).filter { KesshoParameters.index[$0] == nil }
        XCTAssertFalse(fileUnknown.isEmpty)
        XCTAssertEqual(p.state.unknownKeys, fileUnknown)
        XCTAssertEqual(Array(p.state.keys.suffix(fileUnknown.count)), fileUnknown)
        let json = KesshoStateJSON.stringify(p.state)
        XCTAssertTrue(json.contains("\"randomWalkSpeed\":" ), json)
        XCTAssertTrue(json.hasSuffix(KesshoStateJSON.quote(fileUnknown.last!) + ":" + KesshoStateJSON.stringify(p.state[fileUnknown.last!]!) + "}"))
    }

    func testEveryOwnPresetLoads() throws {
        XCTAssertEqual(Self.ownFiles.count, 17, "14 shipped presets + 3 test presets")
        try checkEveryFileLoads(Self.ownFiles)
    }

    func testRoundTripKeepsEverything() throws { try checkRoundTrip(Self.ownFiles) }

    func testUnknownKeysKeepFileOrderInStateJSON() throws {
        try checkUnknownKeysKeepFileOrder(Self.ownFolder.appendingPathComponent("Unknown_Keys.json"))
    }

    /// A web-format preset with keys this port does not know, float noise, and ranges of which
    /// only one has a mode in the file (the others are inferred as walking sliders).
    func testUnknownKeysFloatNoiseAndInferredModes() throws {
        let r = try KesshoPresetLoader.load(contentsOf: Self.ownFolder.appendingPathComponent("Unknown_Keys.json"))
        let p = r.preset
        XCTAssertEqual(p.name, "Unknown Keys")
        XCTAssertEqual(p.timestamp, "2026-03-06T06:06:06.606Z")
        XCTAssertEqual(p.state.number("granularReverbSend"), 0.30000000000000004, "float noise kept bit-exact")
        XCTAssertTrue(KesshoStateJSON.stringify(p.state).contains(#""granularReverbSend":0.30000000000000004,"#))
        XCTAssertEqual(p.state.unknownKeys, ["zzFromANewerVersion", "brightness", "reverbMix", "aaLegacyFlag"])
        XCTAssertEqual(p.state.string("zzFromANewerVersion"), "kept")
        XCTAssertEqual(p.state.count, 403 + 4)
        XCTAssertEqual(p.dualRanges.count, 3)
        XCTAssertEqual(p.sliderModes["grainSize"], .sampleHold)
        XCTAssertEqual(p.sliderModes["tension"], .walk, "inferred")
        XCTAssertEqual(p.sliderModes["oceanInterval"], .walk, "inferred")
        XCTAssertTrue(r.warnings.contains("2 sliders have a range but no mode: each wanders within its range, as the web app does"), "\(r.warnings)")
    }

    /// The old flat iOS format: a trailing comma, a numeric timestamp, legacy Min/Max pairs, an
    /// iOS reverb name, legacy lead keys.
    func testLegacyFlatPresetMigrates() throws {
        let r = try KesshoPresetLoader.load(contentsOf: Self.ownFolder.appendingPathComponent("Legacy_Flat.json"))
        let s = r.preset.state
        XCTAssertEqual(r.warnings.first, "trailing comma at line 24, column 20 ignored")
        XCTAssertTrue(r.warnings.contains("numeric timestamp converted to 2026-01-01T00:00:00.000Z"), "\(r.warnings)")
        XCTAssertEqual(r.preset.timestamp, "2026-01-01T00:00:00.000Z")
        XCTAssertEqual(s.number("grainSize"), 150, "the midpoint of 60…240")
        XCTAssertEqual(r.preset.dualRanges["grainSize"], KesshoDualRange(min: 60, max: 240))
        XCTAssertEqual(r.preset.sliderModes["grainSize"], .sampleHold)
        XCTAssertEqual(s.number("oceanDuration"), 7.5)
        XCTAssertEqual(r.preset.sliderModes["oceanDuration"], .walk)
        XCTAssertEqual(s.number("oceanFoam"), 0.3, "an empty range is a single value")
        XCTAssertNil(r.preset.dualRanges["oceanFoam"])
        XCTAssertEqual(s.number("lead1Morph")!, 0.35, accuracy: 1e-12, "legacy leadTimbreMin/Max")
        XCTAssertEqual(s.number("lead1Attack"), 0.05)
        XCTAssertEqual(s.number("lead1Density"), 0.6)
        XCTAssertEqual(s.bool("lead1UseCustomAdsr"), true, "a legacy lead envelope key was present")
        XCTAssertEqual(s.string("lead1PresetA"), "soft_rhodes", "empty → the web's default")
        XCTAssertEqual(s.string("reverbType"), "hall", "iOS mediumHall")
        XCTAssertEqual(s.unknownKeys, ["brightness", "oceanMix"])
        XCTAssertNil(s["grainSizeMin"]); XCTAssertNil(s["leadAttack"])
    }

    /// A lead-only preset: the lead on, the pad, grains and ocean silent; a drum morph range
    /// without a mode is sample-and-hold, as the web infers it.
    func testLeadOnlyPreset() throws {
        let p = try KesshoPresetLoader.load(contentsOf: Self.ownFolder.appendingPathComponent("Lead_Only.json")).preset
        XCTAssertEqual(p.state.bool("leadEnabled"), true)
        XCTAssertEqual(p.state.number("leadLevel"), 0.8)
        XCTAssertEqual(p.state.number("synthLevel"), 0)
        XCTAssertEqual(p.state.bool("granularEnabled"), false)
        XCTAssertEqual(p.sliderModes["lead1Morph"], .sampleHold)
        XCTAssertEqual(p.sliderModes["drumKickMorph"], .sampleHold, "drum morphs are per-hit draws")
    }

    // MARK: the Kessho app's originals (skipped when ../shared/fixtures is not beside the checkout)

    func testEveryPeerPresetLoads() throws {
        let files = try Self.peerFiles()
        XCTAssertEqual(files.count, 14, "5 web presets + 9 iOS presets")
        try checkEveryFileLoads(files)
    }

    func testPeerRoundTripKeepsEverything() throws { try checkRoundTrip(try Self.peerFiles()) }

    func testPeerUnknownKeysKeepFileOrderInStateJSON() throws {
        try checkUnknownKeysKeepFileOrder(try Self.peers().appendingPathComponent("ZoneOut1.json"))
    }

    func testPeerTrailingCommaPresetsWarn() throws {
        for (name, line) in [("WaveOut", 133), ("ZoneOutTest", 134), ("ZoneOutTest2", 134)] {
            let r = try KesshoPresetLoader.load(contentsOf: try Self.peers().appendingPathComponent("ios/\(name).json"))
            XCTAssertEqual(r.warnings.first, "trailing comma at line \(line), column 29 ignored", name)
        }
    }

    func testPeerStringWavesDetails() throws {
        let r = try KesshoPresetLoader.load(contentsOf: try Self.peers().appendingPathComponent("StringWavesR.json"))
        let p = r.preset
        XCTAssertEqual(p.name, "String Waves")
        XCTAssertEqual(p.timestamp, "2026-02-14T00:00:00.000Z")
        XCTAssertEqual(p.state.number("masterVolume"), 0.5700000000000001)  // float noise kept bit-exact
        XCTAssertEqual(p.state.bool("cofDriftEnabled"), true)
        XCTAssertEqual(p.state.unknownKeys.count, 18)
        XCTAssertEqual(p.dualRanges.count, 19)
        XCTAssertEqual(p.sliderModes.count, 19)  // 9 written + 10 inferred as walk
        XCTAssertTrue(KesshoStateJSON.stringify(p.state).contains(#""masterVolume":0.5700000000000001,"#))
    }

    /// Keys present (unknown ones beyond the 403) and ranges of the web app's presets.
    func testPeerWebPresetKeyCounts() throws {
        let expected: [String: (unknown: Int, ranges: Int, modesInFile: Int)] = [
            "Gamelantest": (11, 6, 6), "Lasers": (11, 11, 11), "Static_frequencies": (11, 13, 6),
            "StringWavesR": (18, 19, 9), "ZoneOut1": (19, 18, 8),
        ]
        for (file, e) in expected {
            let p = try KesshoPresetLoader.load(contentsOf: try Self.peers().appendingPathComponent("\(file).json")).preset
            XCTAssertEqual(p.state.unknownKeys.count, e.unknown, file)
            XCTAssertEqual(p.state.count, 403 + e.unknown, file)
            XCTAssertEqual(p.dualRanges.count, e.ranges, file)
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
}
