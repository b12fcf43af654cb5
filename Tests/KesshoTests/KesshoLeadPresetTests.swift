import EntrainDSP
import Foundation
import Kessho
import TestSupport
import XCTest

/// The lead's FM voices and the drum voice presets in the web's sub-preset formats.
final class KesshoLeadPresetTests: XCTestCase {
    func parse(_ text: String) throws -> KesshoJSONValue { try KesshoJSONParser.parse(Array(text.utf8)).value }

    /// A Lead4opFM file of our own: every field read, missing ones at the web's defaults.
    func testLead4opFMFormat() throws {
        let p = try KesshoLeadPresets.patch(json: parse("""
        {"id": "ours", "name": "Ours", "engine": "Lead4opFM", "algorithm": "stack",
         "xy": {"xLevel": 0.9, "xPan": -0.5, "yLevel": 1.1, "yPan": 0.5},
         "params": {"beatDetune": 7, "carrier2Mix": 0.4,
                    "mod1": {"ratio": 2, "index": 1.5, "decay": 0.3, "sustain": 0.2}, "mod2": {"ratio": 3, "index": 0.5, "decay": 0.2},
                    "mod3": {"ratio": 5, "index": 0.25, "decay": 0.1}, "mod4": {"ratio": 0.5, "index": 0.1, "decay": 0.4},
                    "envelope": {"attack": 0.002, "decay": 0.3, "sustain": 0.4, "release": 3},
                    "filter": {"freq": 5000, "q": 0.9}, "gain": 0.6}}
        """))
        XCTAssertEqual(p.algorithm, .stack)
        XCTAssertEqual([p.ratio[0], p.ratio[1], p.ratio[2], p.ratio[3]], [2, 3, 5, 0.5])
        XCTAssertEqual(p.mod1Sustain, 0.2)
        XCTAssertEqual(p.release, 3)
        XCTAssertEqual(p.click, 0, "no transient: the web's defaults")
        XCTAssertEqual(p.transientMilliseconds, 20)
        XCTAssertEqual(p.yPan, 0.5)
        XCTAssertThrowsError(try KesshoLeadPresets.patch(json: parse(#"{"algorithm": "ring", "params": {}}"#)))
        XCTAssertEqual(KesshoLeadPresets.patch(id: "nonsense").gain, KesshoLeadPresets.patch(id: "soft_rhodes").gain,
                       "unknown ids play soft_rhodes")
        XCTAssertEqual(KesshoLeadPresets.all.count, 16)
    }

    /// The morph: numbers interpolate, the algorithm snaps at 0.5.
    func testMorphInterpolatesAndSnaps() {
        let a = KesshoLeadPresets.patch(id: "soft_rhodes"), b = KesshoLeadPresets.patch(id: "gamelan")
        let m = FMPatch.morph(a, b, 0.25)
        XCTAssertEqual(m.index[0], 0.25 + (2 - 0.25) * 0.25, accuracy: 1e-12)
        XCTAssertEqual(m.release, 2 + 4 * 0.25, accuracy: 1e-12)
        XCTAssertEqual(m.algorithm, .parallel)
        XCTAssertEqual(FMPatch.morph(a, b, 0.5).algorithm, .cross)
    }

    /// The web app's 16 Lead4opFM files agree with the voices compiled in (when beside the checkout).
    func testPeerLeadFilesMatchTheCompiledVoices() throws {
        guard let folder = Fixtures.peers("kessho-presets") else { throw XCTSkip(Fixtures.peersAbsent("kessho-presets")) }
        let files = Fixtures.files(in: folder.appendingPathComponent("Lead4opFM"), suffix: "json").filter { $0.lastPathComponent != "manifest.json" }
        XCTAssertEqual(files.count, 16)
        for url in files {
            let id = url.deletingPathExtension().lastPathComponent
            let file = try KesshoLeadPresets.patch(json: parse(String(contentsOf: url, encoding: .utf8)))
            let ours = try XCTUnwrap(KesshoLeadPresets.all[id], id)
            XCTAssertEqual(file.algorithm, ours.algorithm, id)
            for k in 0..<4 {
                XCTAssertEqual(file.ratio[k], ours.ratio[k], id)
                XCTAssertEqual(file.index[k], ours.index[k], id)
                XCTAssertEqual(file.modDecay[k], ours.modDecay[k], id)
            }
            XCTAssertEqual([file.attack, file.decay, file.sustain, file.release, file.gain, file.filterFrequency, file.click, file.xPan],
                           [ours.attack, ours.decay, ours.sustain, ours.release, ours.gain, ours.filterFrequency, ours.click, ours.xPan], id)
        }
    }

    /// The web's DrumSynth files parse, name their voices, and morph as ours do.
    func testPeerDrumFilesParseAndMorph() throws {
        guard let folder = Fixtures.peers("kessho-presets") else { throw XCTSkip(Fixtures.peersAbsent("kessho-presets")) }
        let kicks = try KesshoDrumPresets.presets(json: parse(String(contentsOf: folder.appendingPathComponent("DrumSynth/kick.json"), encoding: .utf8)))
        XCTAssertGreaterThan(kicks.count, 10)
        XCTAssertTrue(kicks.allSatisfy { $0.voice == "kick" })
        let m = KesshoDrumPresets.morph(kicks[0], kicks[1], 0.5)
        XCTAssertNotNil(m["drumKickFreq"])
    }

    /// Our drum library: the web's default names for every voice, and its morph rule (smoothstep,
    /// exponential for times and frequencies, text switching at 0.5).
    func testOwnDrumLibraryAndMorphRule() throws {
        for (name, voice) in [("Classic Sub", "sub"), ("Ikeda Kick", "kick"), ("Data Point", "click"), ("Data Ping", "beepHi"),
                              ("Blip", "beepLo"), ("Hi-Hat", "noise"), ("Snare Classic", "membrane")] {
            XCTAssertNotNil(KesshoDrumPresets.named(name, voice: voice), name)
        }
        let a = try XCTUnwrap(KesshoDrumPresets.named("Soft Thud", voice: "kick"))
        let b = try XCTUnwrap(KesshoDrumPresets.named("Far Boom", voice: "kick"))
        let half = KesshoDrumPresets.morph(a, b, 0.5)
        XCTAssertEqual(half["drumKickDecay"]?.number ?? 0, (110.0 * 1300).squareRoot(), accuracy: 1e-9, "geometric at the midpoint")
        XCTAssertEqual(half["drumKickBody"]?.number ?? 0, 0.75, accuracy: 1e-12, "linear")
        XCTAssertEqual(KesshoDrumPresets.morph(a, b, 0.25)["drumKickBody"]?.number ?? 0, 0.6 + 0.3 * 0.15625, accuracy: 1e-12,
                       "smoothstep(0.25) = 0.15625")
        let json = try KesshoDrumPresets.presets(json: parse(#"[{"name": "X", "voice": "noise", "params": {"drumNoiseDecay": 40, "drumNoiseFilterType": "bandpass"}}]"#))
        XCTAssertEqual(json.first?.params["drumNoiseFilterType"], .string("bandpass"))
        XCTAssertThrowsError(try KesshoDrumPresets.presets(json: parse(#"{"name": "not an array"}"#)))
    }
}
