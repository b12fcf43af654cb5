import EntrainControl
import EntrainDSP
import EntrainEngine
import EntrainFiles
import Foundation
import Kessho
import TestSupport
import XCTest

/// Files written to break the client: absurd numbers, deep nesting, huge sizes, links out of
/// their folder. Each gets a clear error with its position (or its file), never a crash.
final class HostileFileTests: XCTestCase {
    var temporary: TemporaryFolder!
    var folder: URL { temporary.url }

    override func setUpWithError() throws { temporary = try TemporaryFolder("hostile") }
    override func tearDown() { temporary.remove() }

    @discardableResult
    func write(_ text: String, _ name: String) throws -> URL { try temporary.write(text, name) }

    // MARK: - Durations (Double → Int64 used to trap)

    func testDurationsBeyondAWeekOrNotPlainNumbersAreErrorsAtTheirPosition() {
        for duration in [#""inf:00""#, #""1e30:00""#, #""00:00:1e30""#, #""9999999999999999999:00""#, "1e30",
                         #""nan:00""#, #""-1:00""#, #""1:-30""#, #""+5:00""#, #""168:00:01""#, "604801", #""1:2:3:4""#] {
            let text = "{ \"stages\": [\n  { \"duration\": \(duration), \"volume\": 0.5 } ] }"
            XCTAssertThrowsError(try SessionDecoder.decode(text, file: "d.json"), duration) { error in
                let problems = (error as? SessionLoadError)?.problems ?? []
                XCTAssertEqual(problems.count, 1, "\(duration): \(error)")
                XCTAssertEqual(problems.first.map { "\($0.line):\($0.column)" }, "2:17", "\(duration): \(error)")
                XCTAssertTrue("\(error)".contains("at most a week"), "\(error)")
            }
        }
        for (duration, seconds) in [(#""1:30""#, 90.0), (#""1:00:00.5""#, 3600.5), (#""90:00""#, 5400), ("604800", 604_800),
                                    (#""168:00:00""#, 604_800)] {
            let text = "{ \"stages\": [ { \"duration\": \(duration), \"volume\": 0.5 } ] }"
            XCTAssertEqual(try SessionDecoder.decode(text, file: "d.json").session.duration, seconds, duration)
        }
    }

    /// The longest sessions a file may hold still compile into frames (at the highest rate).
    func testTheLongestStagesCompileIntoFrames() throws {
        let stage = "{ \"duration\": 604800, \"volume\": 0.5, \"transition\": \"linear\" }"
        let text = "{ \"stages\": [" + Array(repeating: stage, count: 1000).joined(separator: ",") + "] }"
        let program = SessionProgram(try SessionDecoder.decode(text, file: "d.json").session, sampleRate: 384_000)
        XCTAssertEqual(program.frames, 604_800 * 1000 * 384_000)
        XCTAssertEqual(program.stageStarts.last, 604_800 * 999 * 384_000)
    }

    func testSaturatingConversionNeverTraps() {
        XCTAssertEqual(Int64(saturating: .infinity), .max)
        XCTAssertEqual(Int64(saturating: -.infinity), .min)
        XCTAssertEqual(Int64(saturating: .nan), 0)
        XCTAssertEqual(Int64(saturating: 1e30), .max)
        XCTAssertEqual(Int64(saturating: 9.223372036854775807e18), .max)
        XCTAssertEqual(Int(saturating: 2.5), 3)
        XCTAssertEqual(Int(saturating: -2.5), -3)
        XCTAssertEqual(Int(saturating: 2.7, rounding: .down), 2)
        XCTAssertEqual(Int32(saturating: 3e9), .max)
    }

    // MARK: - Nesting

    func testNestingDeeperThanTheSharedLimitIsAnErrorAtItsPosition() throws {
        let limit = InputLimits.jsonDepth
        XCTAssertEqual(limit, 64)
        XCTAssertNoThrow(try JSONDocument.parse(String(repeating: "[", count: limit) + "1" + String(repeating: "]", count: limit)))
        for depth in [limit + 1, 100_000] {
            let text = "\n" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            XCTAssertThrowsError(try JSONDocument.parse(text)) { error in
                XCTAssertEqual("\(error)", "2:\(limit + 1): nested more than \(limit) deep")
            }
        }
        // Through a loader: the session's own file:line:column.
        let deep = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        XCTAssertThrowsError(try SessionDecoder.decode(deep, file: "deep.json")) { error in
            XCTAssertEqual("\(error)", "deep.json:1:\(5 * limit + 1): error: nested more than \(limit) deep")
        }
    }

    // MARK: - Sizes

    func testEveryDocumentReaderCapsTheFileSize() throws {
        let padding = String(repeating: " ", count: InputLimits.documentBytes)
        let mib = String(format: "%.1f", Double(InputLimits.documentBytes + 15) / 1_048_576)  // "{ "state": {} }" and padding
        let session = try write("{ \"stages\": [ { \"duration\": 1 } ] }" + padding, "big.json")
        XCTAssertThrowsError(try SessionFiles.load(session)) { error in
            XCTAssertEqual("\(error)", "\(session.path): error: too large (\(mib) MiB): files of at most \(InputLimits.documentBytesText) are read")
        }
        let sbg = try write("-SE\na: 200+10/20\n00:00 a\n00:10 a\n" + padding, "big.sbg")
        XCTAssertThrowsError(try SessionFiles.load(sbg)) { XCTAssertTrue("\($0)".contains("files of at most \(InputLimits.documentBytesText) are read"), "\($0)") }
        let gnaural = try write("<schedule>" + padding + "</schedule>", "big.gnaural")
        XCTAssertThrowsError(try SessionFiles.load(gnaural)) { XCTAssertTrue("\($0)".contains("files of at most \(InputLimits.documentBytesText) are read"), "\($0)") }
        let ahap = try write("{ \"Pattern\": [] }" + padding, "big.ahap")
        XCTAssertThrowsError(try HapticPattern.load(contentsOf: ahap)) { XCTAssertTrue("\($0)".contains("files of at most \(InputLimits.documentBytesText) are read"), "\($0)") }
        let kessho = try write("{ \"state\": {} }" + padding, "big-kessho.json")
        XCTAssertThrowsError(try KesshoPresetLoader.load(contentsOf: kessho)) {
            XCTAssertEqual("\($0)", "\(kessho.path): too large (\(mib) MiB): files of at most \(InputLimits.documentBytesText) are read")
        }
        let library = Library(dataDirectory: folder)
        try library.presets.store.write("Big", "{ \"values\": {} }" + padding)
        XCTAssertThrowsError(try library.presets.load("Big", over: Engine.parameterTable.defaults)) {
            XCTAssertEqual("\($0)", "presets/Big.json: too large (\(mib) MiB): files of at most \(InputLimits.documentBytesText) are read")
        }
        try library.playlists.store.write("Big", "{ \"items\": [] }" + padding)
        XCTAssertThrowsError(try library.playlists.items("Big")) { XCTAssertTrue("\($0)".hasPrefix("playlists/Big.json: too large"), "\($0)") }

        // Just under the limit is read (and parsed) as usual.
        let fits = try write("{ \"stages\": [ { \"duration\": 1 } ] }" + String(repeating: " ", count: InputLimits.documentBytes - 64), "fits.json")
        XCTAssertEqual(try SessionFiles.load(fits).session.duration, 1)
    }

    func testMissingFoldersAndDevicesAreSaidInWords() throws {
        let missing = folder.appendingPathComponent("nope.json")
        XCTAssertThrowsError(try DocumentFile.bytes(missing)) { XCTAssertEqual("\($0)", "\(missing.path): no such file") }
        XCTAssertThrowsError(try DocumentFile.bytes(folder, label: "x")) { XCTAssertEqual("\($0)", "x: is a folder, not a file") }
        XCTAssertThrowsError(try DocumentFile.bytes(URL(fileURLWithPath: "/dev/zero"), label: "zero")) {
            XCTAssertEqual("\($0)", "zero: is a device, not a file (only regular files are read)")
        }
        // A pipe with no writer: refused at once (opening it to read would wait for a writer for good).
        let fifo = folder.appendingPathComponent("session.json")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try SessionFiles.load(fifo)) { XCTAssertTrue("\($0)".contains("is a pipe, not a file"), "\($0)") }
        XCTAssertThrowsError(try DocumentFile.bytes(fifo, label: "fifo")) {
            XCTAssertEqual("\($0)", "fifo: is a pipe, not a file (only regular files are read)")
        }
        XCTAssertThrowsError(try SessionFiles.load(folder.appendingPathComponent("nope.sbg"))) {
            XCTAssertTrue("\($0)".hasSuffix("nope.sbg: error: no such file"), "\($0)")
        }
    }

    // MARK: - Stores stay in their folders and name themselves, not paths

    func testPresetsPlaylistsAndLastUsedRefuseLinksOutOfTheirFolder() throws {
        let library = Library(dataDirectory: folder.appendingPathComponent("data"))
        let outside = try write("{ \"values\": { \"/entrain/beat\": 7 } }", "outside/secret.json")
        try library.presets.save("Real", values: Engine.parameterTable.defaults)
        try FileManager.default.createSymbolicLink(at: library.presets.store.folder.appendingPathComponent("Evil.json"), withDestinationURL: outside)
        XCTAssertThrowsError(try library.presets.load("Evil", over: Engine.parameterTable.defaults)) {
            XCTAssertEqual("\($0)", "presets/Evil.json leads outside the preset folder (a link?); refused")
        }
        XCTAssertThrowsError(try library.presets.store.read("Evil"))  // what `entrain preset show` prints
        // A link to another preset in the same folder is fine.
        try FileManager.default.createSymbolicLink(at: library.presets.store.folder.appendingPathComponent("Alias.json"),
                                                   withDestinationURL: library.presets.store.folder.appendingPathComponent("Real.json"))
        XCTAssertNoThrow(try library.presets.load("Alias", over: Engine.parameterTable.defaults))

        let list = try write("{ \"items\": [ { \"preset\": \"Real\", \"duration\": 60 } ] }", "outside/list.json")
        try FileManager.default.createDirectory(at: library.playlists.store.folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: library.playlists.store.folder.appendingPathComponent("Evil.json"), withDestinationURL: list)
        XCTAssertThrowsError(try library.playlists.items("Evil")) { XCTAssertTrue("\($0)".contains("leads outside the playlist folder"), "\($0)") }

        let lastUsed = library.presets.store.folder.deletingLastPathComponent().appendingPathComponent("last-used.json")
        try FileManager.default.createSymbolicLink(at: lastUsed, withDestinationURL: outside)
        XCTAssertNil(library.presets.lastUsed(over: Engine.parameterTable.defaults), "a linked last-used file is not read")
    }

    func testStoreErrorsNameTheStoreAndNeverAnAbsolutePath() throws {
        let sessions = folder.appendingPathComponent("sessions")
        _ = try write("{ \"stages\": [ { \"duration\": 0 } ] }", "sessions/broken.json")
        let transport = SessionTransport(engine: CurrentEngine(try TestEngine.host()), directories: [sessions])
        var messages: [String] = []
        XCTAssertThrowsError(try transport.load("nope")) { messages.append("\($0)") }
        XCTAssertThrowsError(try transport.load("broken")) { messages.append("\($0)") }
        XCTAssertEqual(messages, ["no session 'nope' in the session directories",
                                  "sessions/broken.json:1:29: error: \"duration\" must be more than 0 and at most a week (604800 seconds): a number of seconds, or \"mm:ss\" / \"hh:mm:ss\""])

        let patterns = PatternPlayer(directories: [folder.appendingPathComponent("patterns")])
        _ = try write("{ \"Pattern\": 5 }", "patterns/odd.ahap")
        let host = try TestEngine.host()
        XCTAssertThrowsError(try patterns.play("nope", on: host)) { messages.append("\($0)") }
        XCTAssertThrowsError(try patterns.play("odd", on: host)) { messages.append("\($0)") }

        let ambient = AmbientPresets(directories: [folder.appendingPathComponent("ambient")])
        _ = try write("{ \"state\": [ }", "ambient/odd.json")
        XCTAssertThrowsError(try ambient.load("nope", keepingReverbQuality: nil)) { messages.append("\($0)") }
        XCTAssertThrowsError(try ambient.load("odd", keepingReverbQuality: nil)) { messages.append("\($0)") }

        let library = Library(dataDirectory: folder)
        try library.presets.store.write("Odd", "{ \"values\": { \"/entrain/carrier\": 9000 } }")
        XCTAssertThrowsError(try library.presets.load("Odd", over: Engine.parameterTable.defaults)) { messages.append("\($0)") }
        XCTAssertThrowsError(try library.presets.load("Nope", over: Engine.parameterTable.defaults)) { messages.append("\($0)") }

        // Writes that fail (a file where the folder should be) name the store too.
        try write("not a folder", "blocked/ambient")
        let blocked = AmbientPresets(directories: [folder.appendingPathComponent("blocked/ambient")])
        XCTAssertThrowsError(try blocked.save(KesshoPreset(name: "x"), as: "x")) { messages.append("\($0)") }
        try write("not a folder", "data/presets")
        XCTAssertThrowsError(try Library(dataDirectory: folder.appendingPathComponent("data")).presets.save("x", values: Engine.parameterTable.defaults)) {
            messages.append("\($0)")
        }

        XCTAssertEqual(messages.count, 10)
        XCTAssertEqual(Array(messages[2...]), [
            "no pattern 'nope' in the pattern directories",
            "patterns/odd.ahap:1:14: error: Pattern must be a list of Event, Parameter and ParameterCurve entries, got a number",
            "no ambient preset 'nope' in the ambient preset directories",
            "ambient/odd.json: malformed preset: JSON error at line 1, column 14: unexpected character '}'",
            "presets/Odd.json: 1:35: /entrain/carrier: 9000 Hz is out of range 20–1500 Hz",
            "no preset named 'Nope'",
            "cannot write ambient/x.json: cannot create its folder (a file of that name is in the way)",
            "cannot write presets/x.json: cannot create its folder (a file of that name is in the way)",
        ])
        for message in messages { XCTAssertFalse(message.contains(folder.path), message) }
    }

    // MARK: - Temporary files of killed writers

    func testTemporaryFilesOfDeadWritersAreSweptOnTheNextWrite() throws {
        let library = Library(dataDirectory: folder)
        try library.presets.save("Calm", values: Engine.parameterTable.defaults)
        let presets = library.presets.store.folder
        let dead = try deadPID()
        let stale = presets.appendingPathComponent(".Calm.json.\(dead).tmp")
        let live = presets.appendingPathComponent(".Other.json.1.tmp")  // PID 1 always runs
        let unrelated = presets.appendingPathComponent(".notes.tmp")
        for url in [stale, live, unrelated] { try Data("x".utf8).write(to: url) }
        try library.presets.save("Calm", values: Engine.parameterTable.defaults)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: presets.path))
        XCTAssertEqual(left, ["Calm.json", ".Other.json.1.tmp", ".notes.tmp"])
    }

    /// The PID of a process that has exited.
    func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    // MARK: - Playlists and imports with absurd lengths

    func testPlaylistAndGnauralLengthsAreBounded() throws {
        let library = Library(dataDirectory: folder)
        try library.playlists.store.write("Long", "{ \"items\": [\n { \"preset\": \"x\", \"duration\": 1e300 } ] }")
        XCTAssertThrowsError(try library.playlists.items("Long")) { XCTAssertTrue("\($0)".contains("2:2: a preset item needs"), "\($0)") }
        try library.playlists.store.write("Fade", "{ \"items\": [\n { \"preset\": \"x\", \"duration\": 60, \"fade\": -1 } ] }")
        XCTAssertThrowsError(try library.playlists.items("Fade")) { XCTAssertTrue("\($0)".contains("2:43: \"fade\""), "\($0)") }
        try library.playlists.create("Empty")
        XCTAssertThrowsError(try library.playlists.add(.init(kind: .preset, name: "x", duration: .infinity), to: "Empty"))

        func gnaural(_ duration: String) -> Data {
            Data("""
            <schedule><voice><type>0</type><entries>
            <entry duration="\(duration)" volume_left="0.5" volume_right="0.5" beatfreq="10" basefreq="200"/>
            </entries></voice></schedule>
            """.utf8)
        }
        XCTAssertThrowsError(try GnauralImporter.convert(gnaural("1e300"), file: "g.gnaural")) {
            XCTAssertTrue("\($0)".contains("at most a day"), "\($0)")
        }
        let tiny = try GnauralImporter.convert(gnaural("1e-300"), file: "g.gnaural").session
        XCTAssertFalse(tiny.stages.isEmpty)
    }
}
