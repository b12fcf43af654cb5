import Foundation
import TestSupport
import XCTest

/// Every way a live client can end keeps the user's settings, and a closed stderr pipe does not
/// end it at all. (On the shared test server, but for the test that stops a server of its own.)
final class ExitPathTests: LiveClientTestCase {
    var data: URL!

    override func setUpWithError() throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: data) }

    var lastUsed: String? { try? String(contentsOf: data.appendingPathComponent("entrain/last-used.json"), encoding: .utf8) }

    /// Start a client on `server` with a carrier of 321 Hz and wait until it plays.
    func start(on server: JackTestServer, quiet: Bool = true, extra: [String] = []) throws -> EntrainBinary.Launched {
        let recorder = try JackRecorder(server: server.name, channels: 1, seconds: 0.1)
        let client = try EntrainBinary.launch(["run", "--no-osc", "--carrier", "321", "--fade-out", "0.1"] + (quiet ? ["--quiet"] : []) + extra,
                                              environment: server.environment.merging(["XDG_DATA_HOME": data.path]) { $1 })
        try recorder.waitForPort("entrain:haptic")
        try recorder.connect(["entrain:entrainment_L"])
        try recorder.waitForSound()
        return client
    }

    /// The server going away no longer ends the run: the client waits for it, and Ctrl-C then
    /// ends the run at once (nothing to fade), exit status 0, settings saved.
    func testTheServerGoingAwayKeepsTheClientUpAndCtrlCStillSavesTheSettings() throws {
        let server = try JackTestServer()
        let client = try start(on: server)
        server.stop()
        XCTAssertFalse(client.signal(0, waitUpTo: 3), "the client stays up without its server")
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 2), "Ctrl-C ends it at once")
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertTrue(client.result().error.contains("JACK server went away"), client.result().error)
        XCTAssertTrue(lastUsed?.contains("321") ?? false, "last-used settings saved: \(lastUsed ?? "none")")
    }

    /// A server that stops answering (frozen with SIGSTOP; a make test run here had one wedged
    /// writing notifications to a closing client) does not hold the exit: the close is given up
    /// after 5 s, exit status 0, settings saved, and the log says why.
    func testAServerThatStopsAnsweringDoesNotHoldTheExit() throws {
        let server = try JackTestServer()
        let client = try start(on: server)
        server.freeze()
        defer { server.proceed() }
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 15), "Ctrl-C ends the run though the server never answers")
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertTrue(client.result().error.contains("did not answer our close"), client.result().error)
        XCTAssertTrue(lastUsed?.contains("321") ?? false, "last-used settings saved: \(lastUsed ?? "none")")
    }

    /// --no-restore leaves the last-used file alone both ways: not read at start, not written at exit.
    func testNoRestoreNeitherReadsNorWritesTheLastUsedSettings() throws {
        let server = try self.server
        let client = try start(on: server, extra: ["--no-restore"])
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertNil(lastUsed, "nothing written")

        let earlier = #"{"format":"entrain-preset","version":1,"values":{"/entrain/carrier":432}}"#
        try FileManager.default.createDirectory(at: data.appendingPathComponent("entrain"), withIntermediateDirectories: true)
        try Data(earlier.utf8).write(to: data.appendingPathComponent("entrain/last-used.json"))
        let again = try start(on: server, extra: ["--no-restore"])
        XCTAssertTrue(again.signal(SIGINT, waitUpTo: 5))
        XCTAssertEqual(lastUsed, earlier, "the earlier file is untouched")
    }

    /// SIGHUP reads the session file again and goes on in it from the same place: an edited
    /// carrier is heard at once, with no gap in the sound, and the client stays up.
    func testSIGHUPReloadsTheSessionFileWithoutAGap() throws {
        let server = try self.server
        let file = data.appendingPathComponent("hup.json")
        func write(carrier: Int) throws {
            let text = #"{"format": "entrain-session/1", "name": "hup", "stages": [{"name": "one", "duration": "10:00", "volume": 0.5, "voices": [{"mode": "binaural", "carrier": CARRIER, "beat": 4, "level": 1}]}]}"#
            try Data(text.replacingOccurrences(of: "CARRIER", with: "\(carrier)").utf8).write(to: file, options: .atomic)
        }
        try write(carrier: 300)
        let rec = try JackRecorder(server: server.name, channels: 1, seconds: 2)
        let client = try EntrainBinary.launch(["run", "--no-osc", "--quiet", "--session", file.path, "--fade-in", "0.05", "--fade-out", "0.1"],
                                              environment: server.environment.merging(["XDG_DATA_HOME": data.path]) { $1 })
        try rec.waitForPort("entrain:haptic")
        try rec.connect(["entrain:entrainment_L"])
        try rec.waitForSound()
        let x = try record(rec) {
            try rec.waitForFrames(33_600)
            try write(carrier: 400)
            kill(client.process.processIdentifier, SIGHUP)
        }
        XCTAssertEqual(x.count, 96_000)
        XCTAssertEqual(Spectrum(Array(x[0..<24_000]), sampleRate: 48_000).peak(from: 250, to: 450).frequency, 300, accuracy: 5)
        XCTAssertEqual(Spectrum(Array(x[72_000...]), sampleRate: 48_000).peak(from: 250, to: 450).frequency, 400, accuracy: 5)
        for start in stride(from: 0, to: x.count - 480, by: 480) {
            XCTAssertGreaterThan(Measure.rms(x[start..<(start + 480)]), 0.02, "no gap at \(start)")
        }
        XCTAssertTrue(client.process.isRunning, "SIGHUP no longer stops the client")
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5))
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertTrue(client.result().error.contains("SIGHUP: reloaded"), client.result().error)
    }

    /// SIGTERM (how NSM and service managers stop a client) fades out like Ctrl-C and exits 0
    /// (within the fade plus 0.5 s: the time taken is printed).
    func testSIGTERMFadesOutAndExitsZero() throws {
        let server = try self.server
        let client = try start(on: server, extra: ["--fade-out", "1"])
        let sent = Date()
        XCTAssertTrue(client.signal(SIGTERM, waitUpTo: 5))
        print("SIGTERM with a 1 s fade-out: exited after \(String(format: "%.2f", Date().timeIntervalSince(sent))) s")
        XCTAssertEqual(client.result().status, 0, client.result().error)
        XCTAssertTrue(client.result().error.contains("fading out over 1.0 s"), client.result().error)
        XCTAssertTrue(lastUsed?.contains("321") ?? false, "last-used settings saved: \(lastUsed ?? "none")")
    }

    /// A second Ctrl-C does not wait for a long fade.
    func testASecondSIGINTStopsAtOnce() throws {
        let server = try self.server
        let client = try start(on: server, extra: ["--fade-out", "60"])
        kill(client.process.processIdentifier, SIGINT)
        XCTAssertFalse(client.signal(0, waitUpTo: 0.3), "the first fades out (over a minute)")
        XCTAssertTrue(client.signal(SIGINT, waitUpTo: 5), "the second stops now")
        XCTAssertEqual(client.result().status, 0, client.result().error)
    }

    /// `entrain run 2>&1 >/dev/null | head -c 100`: the reader goes away; the status line (every
    /// 5 s when stderr is not a terminal) then writes to a closed pipe. The client goes on.
    func testAClosedStderrPipeDoesNotStopTheClient() throws {
        let server = try self.server
        let recorder = try JackRecorder(server: server.name, channels: 1, seconds: 0.1)
        let process = Process()
        process.executableURL = EntrainBinary.url
        process.arguments = ["run", "--no-osc", "--carrier", "321"]
        var environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        environment["XDG_DATA_HOME"] = data.path
        process.environment = environment
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let launched = Date()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        try recorder.waitForPort("entrain:haptic")
        _ = pipe.fileHandleForReading.readData(ofLength: 100)  // what `head -c 100` reads …
        try pipe.fileHandleForReading.close()                     // … before it exits
        // Past the next status line (5 s after the start): the client's count of write calls
        // (/proc/PID/io) grows when it writes it to the closed pipe.
        func writes() -> Int? {
            let io = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/io", encoding: .utf8)
            return io?.split(separator: "\n").first { $0.hasPrefix("syscw:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        }
        let before = writes() ?? 0
        try waitFor("the next status line", timeout: 20) { Date().timeIntervalSince(launched) > 5 && (writes() ?? .max) > before }
        XCTAssertFalse(waitUntil(timeout: 0.5) { !process.isRunning }, "still running after writing to a closed pipe")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(lastUsed?.contains("321") ?? false, "and it saved its settings on the way out")
    }
}
