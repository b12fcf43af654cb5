import Foundation
import TestSupport
import XCTest

/// The real binary against hostile or clumsy input: every case used to crash or answer with a
/// raw Foundation error; each must now be a clear message and an exit code, never a signal.
final class HostileInputCommandTests: XCTestCase {
    var temporary: TemporaryFolder!
    var folder: URL { temporary.url }

    override func setUpWithError() throws { temporary = try TemporaryFolder("hostile-cli") }
    override func tearDown() { temporary.remove() }

    func write(_ text: String, _ name: String) throws -> String { try temporary.write(text, name).path }

    /// `run` options refused before any JACK client opens (the server named does not exist, so
    /// getting past validation would fail differently): usage errors, exit code 64.
    func testRunOptionsAreUsageErrorsBeforeJACK() throws {
        let noServer = ["--server", "no-such-server-\(getpid())", "--quiet"]
        let cases: [([String], String)] = [
            (["--timer", "-5"], "--timer must be more than 0 and at most 1440 minutes, got -5.0"),
            (["--timer", "0"], "--timer must be more than 0 and at most 1440 minutes, got 0.0"),
            (["--timer", "nan"], "--timer must be more than 0"),
            (["--name", String(repeating: "n", count: 64)], "--name must be 1 to 63 bytes long (JACK's limit), got 64"),
            (["--osc-allow", "10.0.0.0/"], "--osc-allow: '10.0.0.0/' is not an IPv4 address or network"),
            (["--ambient-preset", folder.appendingPathComponent("nope.json").path], "--ambient-preset \(folder.path)/nope.json: no such file"),
            (["--ambient-preset", folder.path], "--ambient-preset \(folder.path): is a folder, not a file"),
            (["--session", folder.path], "--session \(folder.path): is a folder, not a file"),
        ]
        for (options, message) in cases {
            let result = try EntrainBinary.run(["run"] + options + noServer, environment: ["JACK_NO_START_SERVER": "1"])
            XCTAssertEqual(result.status, 64, "\(options): \(result.error)")
            XCTAssertTrue(result.error.contains(message), "\(options): \(result.error)")
            XCTAssertFalse(result.error.contains("NSCocoaErrorDomain") || result.error.contains("Missing value"), result.error)
        }
    }

    func testAFullDeviceIsSaidInWords() throws {
        let result = try EntrainBinary.run(["render", "--duration", "1", "--out", "/dev/full"])
        XCTAssertEqual(result.status, 1, result.error)
        XCTAssertTrue(result.error.contains("cannot write /dev/full: No space left on device"), result.error)
        XCTAssertFalse(result.error.contains("Code=640"), result.error)
    }

    func testValidateKnowsAKesshoPreset() throws {
        let preset = try write(#"{ "name": "Calm", "timestamp": "2026-01-01T00:00:00.000Z", "state": { "tension": 0.4, "rootNote": 2, } }"#, "calm.json")
        let bare = try write(#"{ "tension": 0.4, "rootNote": 1e308 }"#, "bare.json")
        let result = try EntrainBinary.run(["validate", preset, bare])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("\(preset): ok — Kessho preset \"Calm\""), result.output)
        XCTAssertTrue(result.error.contains("\(bare): warning: line 1, column 19: rootNote=1e+308 clamped to 11"), result.error)
        XCTAssertFalse(result.output.contains("stages"), result.output)
    }

    /// What used to kill validate, import and render: recursive blocks, durations past Int64, a
    /// preset nested 100,000 deep, a root note of 1e308.
    func testFilesThatUsedToCrashAreErrorsOrPlay() throws {
        let cyclic = try write("-SE\na: 200+10/20\nb: {\n+0:00 a\n+0:05 b\n}\n00:00 b\n00:10 a\n", "cyclic.sbg")
        let out = folder.appendingPathComponent("out.wav").path
        for command in [["validate", cyclic], ["import", cyclic, "-o", folder.appendingPathComponent("c.json").path],
                        ["render", "--session", cyclic, "--out", out]] {
            let result = try EntrainBinary.run(command)
            XCTAssertTrue(result.status == 1 || result.status == 64, "\(command[0]) ended with \(result.status)")
            XCTAssertTrue((result.output + result.error).contains("cyclic.sbg:5:1: error: block 'b' names itself (b → b)"), result.output + result.error)
        }
        for duration in ["inf:00", "1e30:00", "00:00:1e30", "9999999999999999999:00"] {
            let session = try write(#"{ "stages": [ { "duration": "\#(duration)", "volume": 0.5 } ] }"#, "d.json")
            let validate = try EntrainBinary.run(["validate", session])
            XCTAssertEqual(validate.status, 1, duration)
            XCTAssertTrue(validate.error.contains("d.json:1:29: error: \"duration\" must be more than 0 and at most a week"), validate.error)
            let render = try EntrainBinary.run(["render", "--session", session, "--out", out])
            XCTAssertEqual(render.status, 64, "\(duration): \(render.error)")
        }
        let deep = try write(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), "deep.json")
        let render = try EntrainBinary.run(["render", "--ambient-preset", deep, "--duration", "1", "--out", out])
        XCTAssertEqual(render.status, 64, render.error)
        XCTAssertTrue(render.error.contains("nested more than 64 deep"), render.error)

        let root = try write(#"{ "name": "r", "state": { "rootNote": 1e308 } }"#, "root.json")
        let played = try EntrainBinary.run(["render", "--ambient-preset", root, "--duration", "2", "--rate", "8000", "--out", out])
        XCTAssertEqual(played.status, 0, played.error)
        XCTAssertTrue(played.error.contains("rootNote=1e+308 clamped to 11"), played.error)
    }

    // MARK: - Renders that cannot finish

    /// The file system refusing more data part-way (here: a file-size limit, EFBIG; a full
    /// disk, ENOSPC, takes the same path): a clear error, no partial file, the old file intact.
    func testAFailedWriteLeavesTheOldFileAndNoPartial() throws {
        let target = folder.appendingPathComponent("old.wav")
        try Data("old".utf8).write(to: target)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 1000 blocks of 512 bytes: a tenth of the render; SIGXFSZ ignored so write() fails instead.
        process.arguments = ["-c", "ulimit -f 1000; trap '' XFSZ; exec \"$0\" render --duration 10 --out \"$1\"",
                             EntrainBinary.url.path, target.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, message)
        XCTAssertEqual(process.terminationReason, .exit, "no crash")
        XCTAssertTrue(message.contains("cannot write \(target.path): File too large (nothing was written there"), message)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["old.wav"])
    }

    func testSignalsStopARenderAndRemoveItsPartialFile() throws {
        let target = folder.appendingPathComponent("long.wav")
        try Data("old".utf8).write(to: target)
        for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")] {
            let render = try EntrainBinary.launch(["render", "--duration", "3600", "--out", target.path])
            try waitForPartial()
            XCTAssertTrue(render.signal(sig, waitUpTo: 10), "\(name): still running")
            let result = render.result()
            XCTAssertEqual(result.status, 128 + sig, "\(name): \(result.error)")
            XCTAssertEqual(render.process.terminationReason, .exit, name)
            XCTAssertTrue(result.error.contains("render stopped (\(name)): nothing written"), result.error)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["long.wav"], name)
            XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "old", name)
        }
    }

    /// SIGKILL cannot be caught: the next render into the folder removes what it left.
    func testAKilledRendersPartialIsSweptByTheNextRender() throws {
        let render = try EntrainBinary.launch(["render", "--duration", "3600", "--out", folder.appendingPathComponent("a.wav").path])
        let partial = try waitForPartial()
        render.signal(SIGKILL, waitUpTo: 10)
        XCTAssertTrue(FileManager.default.fileExists(atPath: partial.path), "SIGKILL leaves it")
        let next = try EntrainBinary.run(["render", "--duration", "1", "--out", folder.appendingPathComponent("b.wav").path])
        XCTAssertEqual(next.status, 0, next.error)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["b.wav"])
    }

    /// The render's `.NAME.PID.partial` in the folder, once it exists.
    @discardableResult
    func waitForPartial() throws -> URL {
        var partial: String?
        try waitUntil(timeout: 30) {
            partial = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".partial") }
            return partial != nil
        }
        guard let partial else {
            XCTFail("no partial file within 30 s: the render did not start")
            throw CocoaError(.fileNoSuchFile)
        }
        return folder.appendingPathComponent(partial)
    }
}
