import Foundation
import TestSupport
import XCTest

/// A new user's first hour: install, man pages, errors in words, progress, --no-restore.
final class NewcomerTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-newcomer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    /// A program started somewhere outside the checkout, with no user files and no system dirs:
    /// only what `make install` put beside the binary can be found.
    private func runInstalled(_ binary: URL, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = scratch
        process.environment = ["HOME": scratch.path, "XDG_DATA_HOME": scratch.appendingPathComponent("data").path,
                               "XDG_DATA_DIRS": scratch.appendingPathComponent("none").path, "PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, error)
    }

    private func script(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = EntrainBinary.packageRoot.appendingPathComponent("scripts/install.sh")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["ENTRAIN_BINARY": EntrainBinary.url.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func testInstallIntoADestdirGivesAWorkingProgramWithItsFilesAndUninstallRemovesThem() throws {
        let destdir = scratch.appendingPathComponent("stage")
        XCTAssertEqual(try script([destdir.path, "/usr"]), 0)
        let root = destdir.appendingPathComponent("usr")
        let binary = root.appendingPathComponent("bin/entrain")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path))

        // Shipped sessions and ambient presets by name, from a folder that has none of them.
        let wav = scratch.appendingPathComponent("theta.wav")
        let session = try runInstalled(binary, ["render", "--session", "theta-meditation", "--duration", "2", "--out", wav.path, "--quiet"])
        XCTAssertEqual(session.status, 0, session.error)
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as! Int, 2 * 48_000 * 4)
        let ambient = try runInstalled(binary, ["render", "--ambient-preset", "Tidal_Glass", "--duration", "1", "--out", wav.path, "--quiet"])
        XCTAssertEqual(ambient.status, 0, ambient.error)
        XCTAssertTrue(ambient.output.contains("peak -"), ambient.output)  // not silence
        let missing = try runInstalled(binary, ["render", "--ambient-preset", "NoSuchPreset", "--duration", "1", "--out", wav.path])
        XCTAssertTrue(missing.error.contains("/usr/share/entrain/ambient"), "the error lists where it looked: \(missing.error)")
        XCTAssertTrue(missing.error.contains("Tidal_Glass") && missing.error.contains("Bell_Garden"), "and what is there: \(missing.error)")

        // Man pages (every subcommand's and the OSC page) and the three shells' completions.
        let manual = root.appendingPathComponent("share/man")
        for page in ["man1/entrain.1", "man1/entrain-run.1", "man1/entrain-ctl.1", "man7/entrain-osc.7"] {
            let text = try String(contentsOf: manual.appendingPathComponent(page), encoding: .utf8)
            XCTAssertTrue(text.contains(".TH \""), page)
        }
        let osc = try String(contentsOf: manual.appendingPathComponent("man7/entrain-osc.7"), encoding: .utf8)
        XCTAssertTrue(osc.contains("/entrain/carrier"), "the OSC page lists the addresses")
        let completions = [("share/bash-completion/completions/entrain", "_entrain"),
                           ("share/zsh/site-functions/_entrain", "#compdef entrain"),
                           ("share/fish/vendor_completions.d/entrain.fish", "complete -c 'entrain'")]
        for (path, marker) in completions {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            XCTAssertTrue(text.contains(marker) && text.contains("render"), path)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("share/doc/entrain/LICENSE").path))

        XCTAssertEqual(try script(["--uninstall", destdir.path, "/usr"]), 0)
        for path in ["bin/entrain", "share/entrain", "share/man/man1/entrain.1", "share/man/man7/entrain-osc.7",
                     "share/bash-completion/completions/entrain", "share/doc/entrain", "lib/systemd/user/entrain.service"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), path)
        }
    }

    /// man/ is what `entrain manual` writes: regenerate with `make man` after changing an option.
    func testCommittedManPagesMatchTheBinary() throws {
        let out = scratch.appendingPathComponent("man")
        let result = try EntrainBinary.run(["manual", "--out", out.path])
        XCTAssertEqual(result.status, 0, result.error)
        let committed = EntrainBinary.packageRoot.appendingPathComponent("man")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: committed.path).sorted(), names, "run `make man`")
        XCTAssertTrue(names.contains("entrain-osc.7") && names.contains("entrain-render.1"))
        for name in names {
            let fresh = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            let kept = try String(contentsOf: committed.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(fresh == kept, "man/\(name) differs from what the binary writes: run `make man`")
        }
    }

    /// Each complaint a new user met, now a sentence with the name in it.
    func testErrorsNameTheFileAndSayWhatToDoWithoutFoundationText() throws {
        let wav = scratch.appendingPathComponent("x.wav").path
        let cases: [(arguments: [String], expected: [String])] = [
            (["render", "--ambient-preset", "StringWavesR", "--duration", "1", "--out", wav],
             ["'StringWavesR' is not a file, nor the name of an ambient preset in", "presets/ambient"]),
            (["render", "--session", "nosuch", "--duration", "1", "--out", wav], ["'nosuch'", "session", "sessions"]),
            (["render", "--session", scratch.path, "--duration", "1", "--out", wav], ["is a folder, not a file"]),
            (["validate", scratch.appendingPathComponent("nosuch.json").path], ["nosuch.json: error: no such file"]),
            (["import", scratch.appendingPathComponent("nosuch.sbg").path, "--output", wav], ["nosuch.sbg", "no such file"]),
            (["render", "--duration", "1", "--out", scratch.appendingPathComponent("no/dir/x.wav").path], ["no/dir/x.wav"]),
            (["run", "--server", "no-such-server-\(getpid())", "--no-osc"], ["no JACK server named 'no-such-server-", "jackd -n no-such-server-"]),
            (["render", "--ambient-preset", EntrainBinary.packageRoot.appendingPathComponent("presets/ambient/Tidal_Glass.json").path,
              "--duration", "1", "--stems", "/proc/entrain-stems", "--out", wav], ["cannot create the folder /proc/entrain-stems: "]),
            (["manual", "--out", "/proc/entrain-man"], ["cannot create the folder /proc/entrain-man: "]),
        ]
        for (arguments, expected) in cases {
            let result = try EntrainBinary.run(arguments, environment: ["JACK_NO_START_SERVER": "1"])
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            for text in expected { XCTAssertTrue(result.error.contains(text), "\(arguments): \(result.error)") }
            for raw in ["NSCocoaErrorDomain", "Code=", ":0:0", "The operation could not be completed", "Cannot connect to server socket"] {
                XCTAssertFalse(result.error.contains(raw), "\(arguments) printed '\(raw)': \(result.error)")
            }
        }
    }

    func testArgumentErrorsShowTheSubcommandsUsage() throws {
        for (arguments, usage) in [(["render", "--duration", "abc", "--out", "x.wav"], "Usage: entrain render"),
                                   (["ctl"], "Usage: entrain ctl"),
                                   (["render", "--duration", "1"], "Usage: entrain render"),
                                   (["validate"], "Usage: entrain validate")] {
            let result = try EntrainBinary.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.error.contains(usage), "\(arguments): \(result.error)")
        }
    }

    func testReportsCountInWordsAndUnits() throws {
        let session = scratch.appendingPathComponent("one.json")
        try Data(#"{"name": "One", "stages": [{"duration": 10, "set": {"/entrain/carrier": 200}}]}"#.utf8).write(to: session)
        let validate = try EntrainBinary.run(["validate", session.path])
        XCTAssertEqual(validate.status, 0, validate.error)
        XCTAssertTrue(validate.output.contains("1 stage,"), validate.output)
        let render = try EntrainBinary.run(["render", "--duration", "1", "--format", "16", "--out", scratch.appendingPathComponent("x.wav").path])
        XCTAssertTrue(render.output.contains("16-bit"), render.output)
    }

    // MARK: progress

    /// Seven and a half minutes of ten voices and a noise bed take about two and a half seconds
    /// here: long enough for the display to appear after its half second, with a plain line at
    /// most tenths (fifteen minutes took over seven seconds beside make test's other shards).
    private let longRender = ["render", "--duration", "450", "--format", "16", "--noise", "pink"]
        + (2...10).flatMap { ["--set", "/entrain/voice/\($0)/level=0.1"] }

    func testProgressIsABarOnATerminalAndPlainLinesOtherwiseAndNothingWhenQuiet() throws {
        let wav = scratch.appendingPathComponent("long.wav").path
        // A pseudo-terminal as stderr: the bar redraws in place.
        var primary: Int32 = 0, secondary: Int32 = 0
        XCTAssertEqual(openpty(&primary, &secondary, nil, nil, nil), 0)
        let process = Process()
        process.executableURL = EntrainBinary.url
        process.arguments = longRender + ["--out", wav]
        process.standardError = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        close(secondary)
        var terminal = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(primary, &buffer, buffer.count)
            if n <= 0 { break }  // EIO once the child has closed its side
            terminal.append(contentsOf: buffer[0..<n])
        }
        close(primary)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let drawn = String(decoding: terminal, as: UTF8.self)
        XCTAssertTrue(drawn.contains("\r\u{1B}[Krendering"), drawn)
        XCTAssertTrue(drawn.contains("elapsed,") && drawn.contains("left") && drawn.contains("[#"), drawn)
        XCTAssertTrue(drawn.hasSuffix("\r\u{1B}[K"), "the bar is cleared before the report")

        // A file as stderr: a line per tenth, in order.
        let plain = try EntrainBinary.run(longRender + ["--out", wav])
        XCTAssertEqual(plain.status, 0, plain.error)
        let lines = plain.error.split(separator: "\n").filter { $0.hasPrefix("rendering ") }
        XCTAssertGreaterThanOrEqual(lines.count, 3, plain.error)
        let percents = lines.compactMap { line in line.split(separator: ": ").last?.split(separator: "%").first.flatMap { Int($0) } }
        XCTAssertEqual(percents, percents.sorted(), "increasing")
        XCTAssertEqual(percents.last, 100)
        XCTAssertFalse(plain.error.contains("\u{1B}"), "no terminal codes in a file")

        let quiet = try EntrainBinary.run(longRender + ["--out", wav, "--quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.error)
        XCTAssertFalse(quiet.error.contains("%"), quiet.error)
    }
}
