import Foundation
import TestSupport
import XCTest

/// Test servers never outlive their test process: a killed test process takes its jackd with it,
/// servers left by earlier runs (an old build, a kill in the instant before the kernel was told)
/// are reaped at the next start, and so are the places killed servers kept in JACK's registry of 8
/// servers, while every other jackd is left alone. Orphans and a full registry made new servers
/// fail to start, and every live test then skipped.
final class JackTestServerCleanupTests: XCTestCase {
    static let holderVariable = "ENTRAIN_TEST_HOLD_SERVER"

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/jackd") else { throw XCTSkip("jackd is not installed (jackd2)") }
    }

    /// This test runs itself again as a child process that starts a JackTestServer and waits;
    /// the child is SIGKILLed (no deinit, no tearDown runs) and its jackd must be gone within 10 s,
    /// out of JACK's server registry too.
    func testAServerDiesWithTheTestProcessThatStartedIt() throws {
        if ProcessInfo.processInfo.environment[Self.holderVariable] != nil { return try holdAServer() }
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: testBinary)
        child.arguments = ["IntegrationTests.JackTestServerCleanupTests/testAServerDiesWithTheTestProcessThatStartedIt"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.holderVariable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL); child.waitUntilExit() } }

        let (jackd, name) = try XCTUnwrap(Self.heldServer(in: output.fileHandleForReading, within: 30), "the child started no server")
        XCTAssertTrue(JackServerRegistry.entries().contains { $0.serverName == name && $0.pid == jackd }, "registered while it runs")
        XCTAssertEqual(ProcStat(jackd)?.parent, child.processIdentifier, "the child's own jackd")
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertTrue(ProcStat.waitUntilGone(jackd, seconds: 10), "jackd \(jackd) outlived the test process that started it")
        if ProcStat.isRunning(jackd) { ProcStat.stop(jackd) }
        XCTAssertFalse(JackServerRegistry.entries().contains { $0.serverName == name }, "\(name) still in JACK's server registry")
    }

    /// The child's part: a server, its jackd's pid on stdout, then wait to be killed (at most a minute).
    private func holdAServer() throws {
        let server = try JackTestServer()
        print("held-server \(server.processIdentifier) \(server.name)")
        fflush(stdout)
        sleep(60)
    }

    /// The pid and name the child printed, read on a thread of its own (the pipe stays open while the child runs).
    private static func heldServer(in handle: FileHandle, within seconds: Double) -> (pid_t, String)? {
        let found = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var held: (pid_t, String)?
        Thread.detachNewThread {
            var text = ""
            while held == nil {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                let words = text.split(separator: "\n").first { $0.hasPrefix("held-server ") }?.split(separator: " ") ?? []
                if words.count == 3, let pid = pid_t(words[1]) { held = (pid, String(words[2])) }
            }
            found.signal()
        }
        return found.wait(timeout: .now() + seconds) == .success ? held : nil
    }

    /// Two orphans as a killed run leaves them, one named as a test server and one under another
    /// name (a user's own), and a live test server of this process: starting a new test server
    /// reaps the first and only it.
    func testStartingAServerReapsOnlyOrphanedTestServers() throws {
        let live = try JackTestServer()
        let orphan = try Self.orphanedJackd(named: { "\(JackTestServer.namePrefix)\($0)-1" })
        let users = try Self.orphanedJackd(named: { "entrain-user-\($0)" })
        defer { ProcStat.stop(users.pid); ProcStat.stop(orphan.pid) }
        XCTAssertTrue(orphan.isOrphanedTestServer)
        XCTAssertFalse(users.isOrphanedTestServer)
        XCTAssertFalse(try XCTUnwrap(JackdProcess.read(live.processIdentifier)).isOrphanedTestServer)

        let next = try JackTestServer()
        XCTAssertTrue(ProcStat.waitUntilGone(orphan.pid, seconds: 10), "the orphaned test server was reaped")
        XCTAssertTrue(ProcStat.isRunning(users.pid), "another name's server is left alone")
        XCTAssertTrue(ProcStat.isRunning(live.processIdentifier), "a live test process's server is left alone")
        XCTAssertTrue(ProcStat.isRunning(next.processIdentifier))
    }

    /// A place JACK's registry kept for a test server that was SIGKILLed after its test process
    /// ended is freed by the next start.
    func testAKilledServersPlaceInJACKsRegistryIsFreed() throws {
        let killed = try Self.orphanedJackd(named: { "\(JackTestServer.namePrefix)\($0)-2" })
        let name = try XCTUnwrap(killed.serverName)
        let deadline = Date().addingTimeInterval(10)
        while !JackServerRegistry.entries().contains(where: { $0.serverName == name }) && Date() < deadline { usleep(20_000) }
        kill(killed.pid, SIGKILL)
        ProcStat.waitUntilGone(killed.pid, seconds: 10)
        let kept = JackServerRegistry.entries().first { $0.serverName == name }
        XCTAssertEqual(kept?.pid, killed.pid, "JACK keeps a SIGKILLed server's place")

        _ = try JackTestServer()
        XCTAssertFalse(JackServerRegistry.entries().contains { $0.serverName == name }, "\(name)'s place was freed")
    }

    /// A jackd whose starter (a shell, whose pid `named` puts in the name) has exited. It runs
    /// under `timeout`, so even a test killed right here leaves it for a minute at most (then
    /// SIGTERM: it leaves JACK's registry too).
    private static func orphanedJackd(named: (String) -> String) throws -> JackdProcess {
        let name = named("$$")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "timeout -k 5 60 /usr/bin/jackd -n \(name) -d dummy -r 48000 -p 1024 >/dev/null 2>&1 &"]
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        // Not waitUntilExit: Foundation would wait for the shell's background child too.
        let expected = named("\(shell.processIdentifier)")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !ProcStat.isRunning(shell.processIdentifier), let jackd = JackdProcess.all().first(where: { $0.serverName == expected }) {
                return jackd
            }
            usleep(20_000)
        }
        throw TestSupportError.timeout("jackd -n \(expected)")
    }
}
