import Foundation
import TestSupport
import XCTest

/// One private dummy JACK server for every test class of the run (a class that changes what the
/// whole server does, its period or transport, gets one of its own), and helpers to run the real
/// client on it. Each test leaves the server as it found it: its clients closed.
class LiveClientTestCase: XCTestCase {
    /// Whether this class changes the server itself (period, transport), so needs its own.
    class var needsOwnServer: Bool { false }

    nonisolated(unsafe) private static var shared: JackTestServer?
    nonisolated(unsafe) private static var own: JackTestServer?

    override class func setUp() {
        super.setUp()
        if needsOwnServer {
            own = try? JackTestServer()
        } else if shared == nil {
            shared = try? JackTestServer()
            XCTestObservationCenter.shared.addTestObserver(SharedServerStopper())
        } else if let shared, !shared.isRunning {
            try? shared.restart()  // a class before this one lost it: the next ones start clean
        }
    }

    override class func tearDown() {
        own?.stop()
        own = nil
        super.tearDown()
    }

    /// Stops the shared server when the whole run ends.
    private final class SharedServerStopper: NSObject, XCTestObservation {
        func testBundleDidFinish(_ testBundle: Bundle) {
            LiveClientTestCase.shared?.stop()
            LiveClientTestCase.shared = nil
        }
    }

    var server: JackTestServer {
        get throws {
            guard let server = Self.needsOwnServer ? Self.own : Self.shared else {
                throw XCTSkip("no JACK server could be started (is jackd2 installed?)")
            }
            return server
        }
    }

    /// Start `entrain run` with `arguments` and wait until its last port exists.
    func startClient(_ arguments: [String], name: String = "entrain", environment: [String: String] = [:],
                     wrapper: [String] = [], recorder: JackRecorder) throws -> EntrainBinary.Launched {
        let server = try self.server
        // Short fades keep tests quick, and OSC takes any free port so clients never collide;
        // a test's own arguments come later and win.
        let launched = try EntrainBinary.launch(["run", "--quiet", "--name", name, "--fade-in", "0.05", "--fade-out", "0.2",
                                                 "--osc-port", "0", "--no-restore"] + arguments,
                                                environment: server.environment.merging(environment) { $1 }, wrapper: wrapper)
        do {
            try recorder.waitForPort("\(name):haptic")
        } catch {
            launched.signal(SIGKILL, waitUpTo: 2)
            XCTFail("client did not come up: \(launched.result().error)")
            throw error
        }
        return launched
    }

    /// Start the client with OSC on a free port; returns it, the port and a client for replies.
    func startWithOSC(_ arguments: [String] = [], environment: [String: String] = [:], wrapper: [String] = [],
                      recorder: JackRecorder) throws -> (EntrainBinary.Launched, Int, OSCTestClient) {
        let port = freePort()
        let client = try startClient(["--osc-port", "\(port)"] + arguments, environment: environment, wrapper: wrapper, recorder: recorder)
        let osc = try OSCTestClient(targetPort: port)
        // The socket opens just after the JACK ports appear, and UDP drops what comes before: retry.
        let deadline = Date().addingTimeInterval(10)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil {
            if Date() > deadline { XCTFail("the OSC server does not answer"); break }
        }
        return (client, port, osc)
    }

    /// Start the client as a user does, restoring the last-used settings from `data` (an
    /// XDG_DATA_HOME) and saving them at exit, with OSC on `port`; returns once it answers.
    func startRestoring(_ arguments: [String] = [], data: URL, port: Int, recorder: JackRecorder) throws -> EntrainBinary.Launched {
        let launched = try EntrainBinary.launch(["run", "--quiet", "--osc-port", "\(port)", "--fade-in", "0.05", "--fade-out", "0.2"] + arguments,
                                                environment: try server.environment.merging(["XDG_DATA_HOME": data.path]) { $1 })
        try recorder.waitForPort("entrain:haptic")
        let osc = try OSCTestClient(targetPort: port)
        let deadline = Date().addingTimeInterval(20)
        while osc.request("/ping", reply: "/pong", timeout: 0.2) == nil {
            if Date() > deadline { XCTFail("the OSC server does not answer"); break }
        }
        return launched
    }

    /// Ctrl-C, and the client must exit 0 within `seconds`.
    func stopClient(_ launched: EntrainBinary.Launched, within seconds: TimeInterval = 5,
                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(launched.signal(SIGINT, waitUpTo: seconds), "client did not stop", file: file, line: line)
        XCTAssertEqual(launched.result().status, 0, launched.result().error, file: file, line: line)
    }

    func freePort() -> Int { Self.freePort() }

    /// A port nobody uses right now, for UDP and TCP alike.
    static func freePort() -> Int {
        for _ in 0..<20 {
            let port = Loopback.candidatePort()
            let free = [SOCK_DGRAM, SOCK_STREAM].allSatisfy { type in
                let fd = socket(AF_INET, Int32(type.rawValue), 0)
                defer { close(fd) }
                return Loopback.bind(fd, port: port)
            }
            if free { return port }
        }
        return 0
    }

    /// Record `recorder` on another thread while `body` runs (from the take's first cycle, so
    /// `body` may wait on `recorder.waitForFrames`); returns the first channel.
    func record(_ recorder: JackRecorder, while body: () throws -> Void) throws -> [Float] {
        final class Take: @unchecked Sendable { var samples: [Float] = [] }  // read after the thread ends
        let take = Take()
        let thread = Thread { take.samples = (try? recorder.record()[0]) ?? [] }
        thread.start()
        try waitFor("the take to start", interval: 0.001) { recorder.isRecording || thread.isFinished }
        try body()
        try waitFor("the take to end", timeout: 60, interval: 0.005) { thread.isFinished }
        return take.samples
    }

    func recorder(channels: Int = 2, seconds: Double) throws -> JackRecorder {
        try JackRecorder(server: try server.name, channels: channels, seconds: seconds)
    }
}
