import EntrainAddressSpace
@testable import EntrainControl
import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// Sessions reach pixel outputs through their stages' `"set"` blocks: the change waits for its
/// frame (the transport sends a second ahead), a seek lands the stage's settings, and a
/// session naming an output the rig lacks is refused when it loads, not when the stage comes.
final class PixelSessionTests: XCTestCase {
    let rig = #"[{"name": "strip", "pixels": 30, "protocol": "ddp", "target": "127.0.0.1"}]"#
    let session = """
        { "name": "lights", "stages": [
            { "duration": 2, "voices": [ { "carrier": 200, "beat": 4 } ], "set": { "/pixels/strip/effect": "solid", "/pixels/strip/palette": "ice" } },
            { "duration": 2, "set": { "/pixels/strip/palette": "fire", "/pixels/strip/brightness": 0.8 } } ] }
        """

    func family() throws -> PixelFamily { PixelFamily(try XCTUnwrap(PixelRig.parse(rig).first)) }

    func testAChangeForAFrameWaitsForItAndOneForNowDoesNot() throws {
        let strip = try family()
        let space = AddressSpace([strip])
        try space.set([try space.parse("/pixels/strip/palette", .text("fire"))], at: 48_000, from: .file)
        XCTAssertEqual(strip.settings(at: 47_999, sampleRate: 48_000).palette, Palette.names.firstIndex(of: "warm"), "not before its frame")
        XCTAssertEqual(strip.value(of: "/pixels/strip/palette"), .text("fire"), "read back as it will be")
        try space.set([try space.parse("/pixels/strip/brightness", .number(0.2))], from: .person)
        XCTAssertEqual(strip.settings(at: 47_999, sampleRate: 48_000).brightness, 0.2, "a person's change applies at once")
        let landed = strip.settings(at: 48_000, sampleRate: 48_000)
        XCTAssertEqual(landed.palette, Palette.names.firstIndex(of: "fire"), "on its frame")
        XCTAssertEqual(landed.brightness, 0.2, "the waiting change leaves the others as they are")
        XCTAssertThrowsError(try space.set([try space.parse("/pixels/strip/palette", .text("ice")), ControlChange("/pixels/strip/nope", .number(1))],
                                           at: 60_000, from: .file))
        XCTAssertEqual(strip.settings(at: 100_000, sampleRate: 48_000).palette, Palette.names.firstIndex(of: "fire"), "a batch with a wrong change is refused whole")
    }

    /// A stage's transition glides brightness, speed and blend from what was shown; a person's change stops it.
    func testAChangeWithAGlideSlidesFromWhatWasShown() throws {
        let strip = try family()
        try strip.set([ControlChange("/pixels/strip/brightness", .number(0.9), glide: 2), ControlChange("/pixels/strip/palette", .text("ice"), glide: 2)],
                      at: 48_000)
        XCTAssertEqual(strip.settings(at: 48_000, sampleRate: 48_000).brightness, 0.5, accuracy: 1e-9, "from the default 0.5")
        XCTAssertEqual(strip.settings(at: 48_000, sampleRate: 48_000).palette, Palette.names.firstIndex(of: "ice"), "a palette switches")
        XCTAssertEqual(strip.settings(at: 96_000, sampleRate: 48_000).brightness, 0.7, accuracy: 1e-9, "half way after one of two seconds")
        XCTAssertEqual(strip.settings(at: 144_000, sampleRate: 48_000).brightness, 0.9, accuracy: 1e-9, "there after two")
        XCTAssertEqual(strip.value(of: "/pixels/strip/brightness"), .number(0.9), "OSC reads the target")

        try strip.set([ControlChange("/pixels/strip/speed", .number(3), glide: 1)], at: 200_000)
        XCTAssertEqual(strip.settings(at: 224_000, sampleRate: 48_000).speed, 2, accuracy: 1e-9)
        try strip.set([ControlChange("/pixels/strip/speed", .number(0.5))], at: nil)
        XCTAssertEqual(strip.settings(at: 230_000, sampleRate: 48_000).speed, 0.5, "a person's change stops the glide")
    }

    func testTheWaitingChangesAreBounded() throws {
        let strip = try family()
        for i in 0..<(PixelFamily.maximumDue + 10) {
            try strip.set([ControlChange("/pixels/strip/speed", .number(1 + Double(i) / 1000))], at: Int64(1_000_000 + i))
        }
        XCTAssertEqual(strip.settings(at: 0, sampleRate: 48_000).speed, 1.009, accuracy: 1e-9, "the oldest beyond the bound applied at once")
        XCTAssertEqual(strip.settings(at: 2_000_000, sampleRate: 48_000).speed, 1 + Double(PixelFamily.maximumDue + 9) / 1000, accuracy: 1e-9)
    }

    func transport(space: AddressSpace) throws -> (SessionTransport, EngineHost, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pixel-sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try session.write(to: folder.appendingPathComponent("lights.json"), atomically: true, encoding: .utf8)
        let host = try TestEngine.host([:])
        space.add(EngineFamily(CurrentEngine(host)))
        return (SessionTransport(engine: CurrentEngine(host), directories: [folder], space: space), host, folder)
    }

    func testAStagesSettingsLandOnItsFrameAndASeekLandsThem() throws {
        let strip = try family()
        let (transport, host, folder) = try transport(space: AddressSpace([strip]))
        defer { try? FileManager.default.removeItem(at: folder) }
        let renderer = OfflineRenderer(host: host, blockSize: 256)
        try transport.load("lights")
        try transport.play()
        let start = host.frame
        for _ in 0..<60 {  // 1.2 s, ticking as the run loop does: stage 2 (at 2 s) is already sent
            _ = try transport.tick()
            _ = renderer.renderStereo(frames: 960)
        }
        XCTAssertEqual(strip.value(of: "/pixels/strip/palette"), .text("fire"), "stage 2 sent ahead")
        XCTAssertEqual(strip.settings(at: start + 95_999, sampleRate: 48_000).palette, Palette.names.firstIndex(of: "ice"), "stage 1 until its last frame")
        XCTAssertEqual(strip.settings(at: start + 96_000, sampleRate: 48_000).palette, Palette.names.firstIndex(of: "fire"), "stage 2 from its first")
        XCTAssertEqual(strip.settings(at: start + 96_000, sampleRate: 48_000).brightness, 0.8)

        try transport.seek(0.5)
        XCTAssertEqual(strip.settings(at: host.frame, sampleRate: 48_000).palette, Palette.names.firstIndex(of: "ice"), "back in stage 1: its settings")
        try transport.seek(3)
        XCTAssertEqual(strip.settings(at: host.frame, sampleRate: 48_000).palette, Palette.names.firstIndex(of: "fire"), "a seek into stage 2 lands its settings")
    }

    func testASessionNamingAnOutputTheRigLacksIsRefusedWhenItLoads() throws {
        let (transport, _, folder) = try transport(space: AddressSpace([]))
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertThrowsError(try transport.load("lights")) {
            XCTAssertTrue("\($0)".contains("stage 1: \"set\": /pixels/strip/effect: no such pixel output (no --pixels rig)"), "\($0)")
        }
        XCTAssertNil(transport.place, "nothing loaded")
    }
}
