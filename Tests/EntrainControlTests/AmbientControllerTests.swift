import EntrainAddressSpace
import EntrainAmbient
import EntrainControl
import EntrainEngine
import Foundation
import Kessho
import TestSupport
import XCTest

/// The ambient engine's OSC surface, driven through the real router against a real engine and
/// conductor on the offline clock.
final class AmbientControllerTests: XCTestCase {
    var host: EngineHost!
    var conductor: AmbientConductor!
    var controller: AmbientController!
    var router: OSCRouter!
    var shipped: URL!, user: URL!

    override func setUpWithError() throws {
        let engine = try TestEngine.host()
        host = engine
        conductor = AmbientConductor(host: engine, state: .defaults, seed: 7) {
            .init(frame: engine.frame, unixSeconds: 1_770_000_000 + Double(engine.frame) / 48_000)
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ambient-osc-\(UUID().uuidString)")
        shipped = root.appendingPathComponent("presets/ambient")
        user = root.appendingPathComponent("data/entrain/ambient")
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.preset, to: shipped.appendingPathComponent("Tidal_Glass.json"))
        controller = AmbientController(conductor: conductor, presets: AmbientPresets(directories: [shipped, user]))
        router = OSCRouter(host: { engine }, frame: { _ in nil }, status: { [] },
                           space: AddressSpace([EngineFamily(CurrentEngine(engine)), AmbientFamily(conductor)]), handlers: [controller])
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
    }

    /// One of our shipped presets: dual ranges, walking and sample-and-hold sliders.
    static let preset = Fixtures.shippedAmbientPresets.appendingPathComponent("Tidal_Glass.json")

    func handle(_ address: String, _ arguments: [OSCValue] = []) -> [OSCRouter.Action] {
        router.handle(TimedMessage(timetag: .immediately, message: OSCMessage(address, arguments)))
    }

    func number(_ key: String) -> Double? { conductor.state.number(key) }

    func testValidSetsSnapToTheWebsStep() {
        XCTAssertEqual(handle("/ambient/tension", [.float(0.337)]), [])
        XCTAssertEqual(number("tension")!, 0.34, accuracy: 1e-12)
        XCTAssertEqual(handle("/ambient/filterCutoffMin", [.int32(1234)]), [])
        XCTAssertEqual(number("filterCutoffMin"), 1230)
        XCTAssertEqual(handle("/ambient/waveSpread", [.double(3.3)]), [])
        XCTAssertEqual(number("waveSpread"), 3.5)
        XCTAssertEqual(handle("/ambient/rootNote", [.int32(9)]), [])
        XCTAssertEqual(number("rootNote"), 9)
        XCTAssertEqual(handle("/ambient/reverbEnabled", [.false]), [])
        XCTAssertEqual(conductor.state.bool("reverbEnabled"), false)
        XCTAssertEqual(handle("/ambient/granularEnabled", [.string("off")]), [])
        XCTAssertEqual(conductor.state.bool("granularEnabled"), false)
        XCTAssertEqual(handle("/ambient/cofDriftEnabled", [.int32(1)]), [])
        XCTAssertEqual(conductor.state.bool("cofDriftEnabled"), true)
        XCTAssertEqual(handle("/ambient/reverbType", [.string("plate")]), [])
        XCTAssertEqual(conductor.state.string("reverbType"), "plate")
        XCTAssertEqual(handle("/ambient/manualScale", [.string("Dorian")]), [])
        XCTAssertEqual(conductor.state.string("manualScale"), "Dorian")
        XCTAssertEqual(handle("/ambient/lead1PresetA", [.string("kalimba")]), [], "free text: any string")
        XCTAssertEqual(conductor.state.string("lead1PresetA"), "kalimba")
    }

    func testBadValuesAreRefusedAndChangeNothing() throws {
        let before = conductor.state
        let cases: [(String, [OSCValue], String)] = [
            ("/ambient/tension", [.float(1.5)], "out of range 0–1"),
            ("/ambient/synthOctave", [.int32(-3)], "out of range -2–2"),
            ("/ambient/tension", [.float(.nan)], "finite"),
            ("/ambient/tension", [.double(.infinity)], "finite"),
            ("/ambient/tension", [.string("high")], "expects a number"),
            ("/ambient/tension", [.float(0.5), .float(1), .float(1)], "3 arguments"),
            ("/ambient/reverbEnabled", [.int32(2)], "expects on/off"),
            ("/ambient/reverbType", [.string("bathroom")], "plate, hall, cathedral, darkHall"),
            ("/ambient/manualScale", [.string("Locrian")], "Major Pentatonic"),
            ("/ambient/rootNote", [.float(4.5)], "whole number"),
            ("/ambient/rootNote", [.int32(12)], "out of range 0–11"),
            ("/ambient/cofCurrentStep", [.int32(2)], "read-only"),
            ("/ambient/noSuchKey", [.float(1)], "unknown address"),
            ("/ambient/manualScale/norm", [.float(0.5)], "no /norm"),
            ("/ambient/seed", [.int32(-1)], "≥ 0"),
            ("/ambient/seed", [.float(3)], "integer"),
            ("/ambient/play", [.float(-1)], "seconds"),
            ("/ambient/preset/load", [.string("../../../etc/passwd")], "outside"),
            ("/ambient/preset/load", [.string("/etc/passwd")], "outside"),
            ("/ambient/preset/load", [.string("NoSuchPreset")], "no ambient preset"),
            ("/ambient/preset/save", [.string("../escape")], "not a usable name"),
        ]
        for (address, arguments, expected) in cases {
            let actions = handle(address, arguments)
            guard actions.count == 1, case .error(let a, let reason) = actions[0] else {
                XCTFail("\(address) \(arguments): expected one error, got \(actions)"); continue
            }
            XCTAssertEqual(a, address)
            XCTAssertTrue(reason.contains(expected), "\(address) \(arguments): '\(reason)' should mention '\(expected)'")
        }
        XCTAssertEqual(conductor.state, before)
        XCTAssertEqual(conductor.seed, 7)
        XCTAssertFalse(conductor.isPlaying)
        XCTAssertFalse(FileManager.default.fileExists(atPath: user.deletingLastPathComponent().appendingPathComponent("escape.json").path))
    }

    func testNormMapsOntoTheRangeTogglesAndBands() {
        XCTAssertEqual(handle("/ambient/filterCutoffMin/norm", [.float(0.5)]), [])
        XCTAssertEqual(number("filterCutoffMin"), 4020, "40 + 0.5 × 7960, snapped to 10")
        XCTAssertEqual(handle("/ambient/synthOctave/norm", [.float(1)]), [])
        XCTAssertEqual(number("synthOctave"), 2)
        XCTAssertEqual(handle("/ambient/reverbEnabled/norm", [.float(0.49)]), [])
        XCTAssertEqual(conductor.state.bool("reverbEnabled"), false)
        XCTAssertEqual(handle("/ambient/reverbEnabled/norm", [.float(0.5)]), [])
        XCTAssertEqual(conductor.state.bool("reverbEnabled"), true)
        // Four reverb types, four bands of 0.25.
        for (n, name) in [(0.0, "plate"), (0.26, "hall"), (0.74, "cathedral"), (0.76, "darkHall"), (1.0, "darkHall"), (0.5, "cathedral")] {
            XCTAssertEqual(handle("/ambient/reverbType/norm", [.float(Float(n))]), [])
            XCTAssertEqual(conductor.state.string("reverbType"), name, "\(n)")
        }
        XCTAssertEqual(handle("/ambient/reverbType/norm"), [.reply(OSCMessage("/ambient/reverbType/norm", [.float(0.625)]))])
    }

    func testQueriesReplyWithTheCurrentValue() {
        XCTAssertEqual(handle("/ambient/density"), [.reply(OSCMessage("/ambient/density", [.float(25)]))])
        XCTAssertEqual(handle("/ambient/density/norm"), [.reply(OSCMessage("/ambient/density/norm", [.float(Float(20.0 / 75))]))])
        XCTAssertEqual(handle("/ambient/reverbEnabled"), [.reply(OSCMessage("/ambient/reverbEnabled", [.true]))])
        XCTAssertEqual(handle("/ambient/seedWindow"), [.reply(OSCMessage("/ambient/seedWindow", [.string("hour")]))])
        XCTAssertEqual(handle("/ambient/cofCurrentStep"), [.reply(OSCMessage("/ambient/cofCurrentStep", [.float(0)]))])
        XCTAssertEqual(handle("/ambient/seed", [.int64(42)]), [])
        XCTAssertEqual(handle("/ambient/seed"), [.reply(OSCMessage("/ambient/seed", [.int64(42)]))])
    }

    func testTransportAndStatus() throws {
        XCTAssertEqual(handle("/ambient/status"), [.reply(OSCMessage("/ambient/status", [.int32(0), .string(""), .int64(7), .int32(0)]))])
        XCTAssertEqual(handle("/ambient/play", [.float(0.1)]), [])
        XCTAssertTrue(conductor.isPlaying)
        guard case .reply(let status) = handle("/ambient/status").first else { return XCTFail("no status") }
        XCTAssertEqual(Array(status.arguments.prefix(4)), [.int32(1), .string(conductor.bucket), .int64(7), .int32(0)])
        XCTAssertFalse(conductor.bucket.isEmpty)
        let chord = try XCTUnwrap(conductor.harmony.chord).frequencies.map { OSCValue.float(Float($0)) }
        XCTAssertGreaterThanOrEqual(chord.count, 3)
        XCTAssertEqual(Array(status.arguments.dropFirst(4)), chord)
        XCTAssertEqual(handle("/ambient/stop"), [])
        XCTAssertFalse(conductor.isPlaying)
    }

    /// A controller's button on /ambient/play and /ambient/stop: press then release does one
    /// thing; `F` alone is a release and does nothing.
    func testPlayAndStopWorkAsButtons() {
        XCTAssertEqual(handle("/ambient/play", [.false]), [])
        XCTAssertFalse(conductor.isPlaying, "a release alone does nothing")
        XCTAssertEqual(handle("/ambient/play", [.float(1)]), [])
        XCTAssertEqual(handle("/ambient/play", [.float(0)]), [])
        XCTAssertTrue(conductor.isPlaying, "press then release: playing")
        XCTAssertEqual(handle("/ambient/stop", [.false]), [])
        XCTAssertTrue(conductor.isPlaying, "a release alone does nothing")
        XCTAssertEqual(handle("/ambient/stop", [.true]), [])
        XCTAssertEqual(handle("/ambient/stop", [.false]), [])
        XCTAssertFalse(conductor.isPlaying, "press then release: stopped")
    }

    /// Load → save → load keeps every key and value, and the slider ranges and modes.
    func testPresetRoundTripKeepsEveryKey() throws {
        XCTAssertEqual(handle("/ambient/preset/load", [.string("Tidal_Glass")]).filter {
            if case .error = $0 { return true }; return false
        }, [])
        let original = try KesshoPresetLoader.load(contentsOf: Self.preset,
                                                   options: { var o = KesshoPresetLoadOptions(); o.userReverbQuality = "balanced"; return o }())
        XCTAssertEqual(conductor.state, original.preset.state)
        XCTAssertEqual(handle("/ambient/preset/save", [.string("Round trip")]), [])
        let saved = user.appendingPathComponent("Round trip.json")
        let again = try KesshoPresetLoader.load(contentsOf: saved).preset
        XCTAssertEqual(again.state.keys, original.preset.state.keys)
        for ((k1, v1), (k2, v2)) in zip(again.state.entries, original.preset.state.entries) {
            XCTAssertEqual(k1, k2)
            XCTAssertEqual(KesshoStateJSON.stringify(v1), KesshoStateJSON.stringify(v2), k1)
        }
        XCTAssertEqual(again.dualRanges, original.preset.dualRanges)
        XCTAssertEqual(again.sliderModes, original.preset.sliderModes)
        XCTAssertFalse(again.dualRanges.isEmpty)
        // Saved by name, found by name: the user's folder is the second place looked in.
        XCTAssertEqual(handle("/ambient/preset/load", [.string("Round trip"), .float(0)]), [])
    }

    /// A hostile preset file naming the conductor's own settings with values no door would take
    /// (a bar count of 1e300 once trapped converting to Int; an intensity of 7; an unknown tempo
    /// source): it loads, each bad setting is dropped with a warning, good ones apply, and none
    /// of them reaches the hashed state.
    func testAPresetFileCannotCrashTheConductorThroughItsOwnSettings() throws {
        let text = try String(contentsOf: Self.preset, encoding: .utf8)
        let hostile = text.replacingOccurrences(of: "\"state\": {", with: """
            "state": { "drumEuclid1EvolveEvery": 1e300, "drumEuclid2EvolveIntensity": 7, "tempoSource": "nowhere",
                       "drumEuclid3EvolveEvery": 16,
            """)
        XCTAssertNotEqual(hostile, text, "the settings went into the state object")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        try Data(hostile.utf8).write(to: user.appendingPathComponent("Hostile.json"))
        let warnings = try controller.loadPreset("Hostile", crossfade: 0)
        XCTAssertEqual(warnings.filter { $0.contains("drumEuclid1EvolveEvery") && $0.contains("out of range") }.count, 1, "\(warnings)")
        XCTAssertEqual(warnings.filter { $0.contains("drumEuclid2EvolveIntensity") }.count, 1, "\(warnings)")
        XCTAssertEqual(warnings.filter { $0.contains("tempoSource") }.count, 1, "\(warnings)")
        XCTAssertEqual(conductor.evolve(lane: 0).everyBars, 4, "the bad bar count dropped, the default kept")
        XCTAssertEqual(conductor.evolve(lane: 1).intensity, 0.5)
        XCTAssertEqual(conductor.evolve(lane: 2).everyBars, 16, "a good one applies")
        for key in ["drumEuclid1EvolveEvery", "drumEuclid2EvolveIntensity", "tempoSource", "drumEuclid3EvolveEvery"] {
            XCTAssertNil(conductor.state[key], "\(key) is not hashed")
        }
    }

    /// A stage's "ambient" block loads its preset when the engine reaches the stage, and starts
    /// the engine; before that frame nothing has changed.
    func testSessionStageLoadsItsPreset() throws {
        let file = shipped.deletingLastPathComponent().appendingPathComponent("s.json")
        let session = try SessionDecoder.decode("""
        { "stages": [ { "duration": 0.5 },
                      { "duration": 2, "ambient": { "preset": "Tidal_Glass", "crossfade": 0 } } ] }
        """, file: file.path).session
        XCTAssertNoThrow(try controller.presets.check(session, file: file.path))
        let program = SessionProgram(session, sampleRate: 48_000)
        XCTAssertEqual(program.ambientStarts.map(\.frame), [24_000])
        let player = SessionPlayer(program: program, startFrame: 0)
        player.ambient = controller
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        let stage = Int64(24_000)
        var loadedAt: Int64?
        let loaded = try controller.presets.load("Tidal_Glass", keepingReverbQuality: "balanced").preset
        // Walking sliders start moving as soon as the engine plays: compare the other keys.
        let walking = Set(loaded.sliderModes.entries.filter { $0.value == .walk }.map(\.key))
        func steady(_ s: KesshoState) -> [String] {
            s.entries.filter { !walking.contains($0.key) }.map { "\($0.key)=\(KesshoStateJSON.stringify($0.value))" }
        }
        let preset = steady(loaded.state)
        for _ in 0..<(48_000 / 256) {
            try player.send(through: host.frame + 256, to: host)
            if loadedAt == nil, steady(conductor.state) == preset { loadedAt = host.frame }
            if host.frame < stage { XCTAssertEqual(conductor.state, .defaults, "frame \(host.frame)") }
            try conductor.pump()
            renderer.renderBlock(256) { _ in }
        }
        let at = try XCTUnwrap(loadedAt, "the preset never loaded")
        XCTAssertGreaterThanOrEqual(at, stage)
        XCTAssertLessThan(at, stage + 256, "within one block of the stage's first frame")
        XCTAssertTrue(conductor.isPlaying)
    }

    func testMissingStagePresetIsALoadErrorWithItsPosition() throws {
        let session = try SessionDecoder.decode("""
        { "stages": [ { "duration": 1,
          "ambient": { "preset": "Nowhere", "crossfade": -1 } } ] }
        """, file: "s.json").session
        let problems = controller.presets.problems(in: session, file: "s.json").map(\.description)
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("s.json:2:50: error:") && $0.contains("crossfade") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("s.json:2:26: error:") && $0.contains("no ambient preset 'Nowhere'") }, "\(problems)")
    }

    /// /session/load (and playlists) refuse a session whose ambient preset is missing.
    func testTransportRefusesASessionWithAMissingPreset() throws {
        let folder = shipped.deletingLastPathComponent()
        try #"{ "stages": [ { "duration": 1, "ambient": { "preset": "Nowhere" } } ] }"#
            .write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let transport = SessionTransport(engine: CurrentEngine(host), directories: [folder], ambient: controller)
        XCTAssertThrowsError(try transport.load("bad")) { error in
            XCTAssertTrue("\(error)".contains("bad.json:1:55: error: stage 1: \"ambient\": no ambient preset 'Nowhere'"), "\(error)")
        }
        XCTAssertNoThrow(try SessionTransport(engine: CurrentEngine(host), directories: [folder]).load("bad"),
                         "without the ambient engine the block is kept and skipped")
    }

    func testWithoutTheEngineEveryAddressSaysSo() {
        let bare = OSCRouter(host: { self.host }, frame: { _ in nil }, status: { [] })
        XCTAssertEqual(bare.handle(TimedMessage(timetag: .immediately, message: OSCMessage("/ambient/tension", [.float(0.5)]))),
                       [.error(address: "/ambient/tension", reason: "unknown address")], "a client without the ambient family")
    }
}
