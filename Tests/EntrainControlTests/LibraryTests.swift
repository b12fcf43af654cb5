import EntrainControl
import EntrainCore
import EntrainEngine
import Foundation
import TestSupport
import XCTest

final class LibraryTests: XCTestCase {
    var data: URL!
    var library: Library!

    override func setUpWithError() throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
        library = Library(dataDirectory: data)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: data) }

    func values(_ settings: [String: String]) throws -> ParameterValues { try TestEngine.values(settings) }

    func testAtomicWritesLeaveNoTemporaryFiles() throws {
        let url = data.appendingPathComponent("x/y.json")
        try AtomicFile.write(Data("one".utf8), to: url)
        try AtomicFile.write(Data("two".utf8), to: url)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path), ["y.json"])
    }

    func testNamesCannotEscapeTheirFolder() {
        for bad in ["../x", "a/b", ".hidden", "", String(repeating: "x", count: 65), " padded", "nul\u{0}"] {
            XCTAssertThrowsError(try NamedStore.check(bad), bad)
        }
        for good in ["Calm", "Evening (long)", "beta-focus_2.1"] { XCTAssertNoThrow(try NamedStore.check(good), good) }
    }

    func testPresetsRoundTripAndManage() throws {
        let calm = try values(["/entrain/beat": "7.5", "/entrain/mode": "monaural", "/entrain/noise": "brown"])
        try library.presets.save("Calm", values: calm)
        XCTAssertEqual(try library.presets.load("Calm", over: Engine.parameterTable.defaults), calm)
        XCTAssertTrue(try library.presets.store.read("Calm").text.contains("\"/entrain/mode\": \"monaural\""), "readable, by name")
        try library.presets.store.rename("Calm", to: "Calmer")
        XCTAssertThrowsError(try library.presets.store.rename("Calm", to: "X")) { XCTAssertEqual($0 as? LibraryError, .notFound("preset", "Calm")) }
        try library.presets.save("Other", values: calm)
        XCTAssertThrowsError(try library.presets.store.rename("Other", to: "Calmer")) { XCTAssertEqual($0 as? LibraryError, .exists("preset", "Calmer")) }
        XCTAssertEqual(library.presets.store.names(), ["Calmer", "Other"])
        try library.presets.store.delete("Other")
        XCTAssertEqual(library.presets.store.names(), ["Calmer"])
    }

    func testABrokenPresetFileIsReportedWithPositions() throws {
        try library.presets.store.write("Bad", "{ \"values\": {\n  \"/entrain/carrier\": 9000,\n  \"/entrain/mode\": \"isochronic\", \"/entrain/beat\": 0.1 } }")
        XCTAssertThrowsError(try library.presets.load("Bad", over: Engine.parameterTable.defaults)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("2:23: /entrain/carrier: 9000 Hz is out of range"), text)
            XCTAssertTrue(text.contains("at least 0.5 Hz"), text)
        }
    }

    func testLastUsedSettingsComeBack() throws {
        XCTAssertNil(library.presets.lastUsed(over: Engine.parameterTable.defaults))
        let used = try values(["/entrain/carrier": "333"])
        try library.presets.saveLastUsed(used)
        XCTAssertEqual(library.presets.lastUsed(over: Engine.parameterTable.defaults), used)
    }

    func testPlaylistsEditAndPlayAsOneSession() throws {
        try library.presets.save("Calm", values: try values(["/entrain/beat": "6"]))
        try library.playlists.create("Evening")
        XCTAssertThrowsError(try library.playlists.create("Evening"))
        try library.playlists.add(.init(kind: .preset, name: "Calm", duration: 4), to: "Evening")
        try library.playlists.add(.init(kind: .session, name: "ramp"), to: "Evening")
        try library.playlists.add(.init(kind: .preset, name: "Calm", duration: 2, fade: 1), to: "Evening")
        try library.playlists.move(3, to: 1, in: "Evening")
        XCTAssertEqual(try library.playlists.items("Evening").map(\.duration), [2, 4, nil])
        try library.playlists.remove(1, from: "Evening")
        XCTAssertThrowsError(try library.playlists.remove(7, from: "Evening")) { XCTAssertEqual($0 as? LibraryError, .badIndex(7, 2)) }
        let ramp = try SessionDecoder.decode("""
        { "name": "ramp", "stages": [ { "duration": 3, "voices": [ { "beat": 10 } ] }, { "duration": 3, "transition": "linear", "voices": [ { "beat": 14 } ] } ] }
        """, file: "ramp.json").session
        let session = try library.playlists.session("Evening", presets: library.presets) { name in
            XCTAssertEqual(name, "ramp")
            return ramp
        }
        XCTAssertEqual(session.stages.map(\.duration), [4, 3, 3])
        XCTAssertEqual(session.stages.map(\.transition), [.crossfade, .crossfade, .linear], "items crossfade into each other")
        // Played: the preset's 6 Hz, crossfading over 3 s into the session's 10 Hz, then sliding to 14.
        let program = SessionProgram(session, sampleRate: 48_000)
        func beat(at seconds: Double) -> Double? { program.state(at: Int64(seconds * 48_000)).first { $0.address == "/entrain/beat" }?.value }
        XCTAssertEqual(beat(at: 3), 6)
        XCTAssertEqual(beat(at: 5)!, 6 + 4.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(beat(at: 7), 10)
        XCTAssertEqual(beat(at: 8.5)!, 12, accuracy: 1e-9)
    }
}

/// Arming the strobe is never carried in by a preset, a playlist or the last-used settings.
final class PresetArmingTests: XCTestCase {
    func testPresetsNeitherStoreNorApplyTheStrobeArming() throws {
        var values = Engine.parameterTable.defaults
        values[try Engine.parameterTable.entry(for: "/led/arm").index] = 1
        let presets = Presets(dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("arm-\(getpid())"))
        let document = presets.document(name: "armed", values: values)
        XCTAssertFalse(document.contains("/led/arm"))
        let text = #"{"values": {"/led/arm": 1, "/entrain/beat": 7}}"#
        let decoded = try Presets.decode(text, file: "old.json", over: Engine.parameterTable.defaults)
        XCTAssertEqual(decoded[try Engine.parameterTable.entry(for: "/led/arm").index], 0, "an old file's arming is ignored")
        XCTAssertEqual(decoded[try Engine.parameterTable.entry(for: "/entrain/beat").index], 7)
    }
}
