import EntrainControl
import EntrainCore
import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// A controller's push button sends 1 (or T) on press and 0 (or F) on release. Every command
/// address does its job on the press, ignores the release quietly, and /panic acts on anything.
final class ControllerButtonTests: XCTestCase {
    var folder: URL!
    var host: EngineHost!
    var transport: SessionTransport!
    var router: OSCRouter!
    var renderer: OfflineRenderer!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("buttons-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{ "name": "two", "stages": [ { "duration": 60, "voices": [ { "carrier": 200, "beat": 4 } ] } ] }"#
            .write(to: folder.appendingPathComponent("two.json"), atomically: true, encoding: .utf8)
        host = try TestEngine.host(["/entrain/volume": "0.5"])
        let engine = CurrentEngine(host)
        transport = SessionTransport(engine: engine, directories: [folder])
        router = OSCRouter(host: { engine.host }, frame: { _ in nil }, status: { [] }, transport: transport)
        renderer = OfflineRenderer(host: host, blockSize: 256)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func press(_ address: String, _ argument: OSCValue?) -> [OSCRouter.Action] {
        let actions = router.handle(TimedMessage(timetag: .immediately, message: OSCMessage(address, argument.map { [$0] } ?? [])))
        _ = renderer.renderStereo(frames: 512)
        return actions
    }

    static let presses: [OSCValue?] = [nil, .float(1), .int32(1), .true, .double(0.5), .int64(-1)]
    static let releases: [OSCValue] = [.float(0), .int32(0), .false, .double(0), .float(.nan)]

    func testPanicActsOnAnyArgument() {
        for argument in Self.presses + Self.releases.map(Optional.some) + [.string("x")] {
            host.status.pointee.panicRequested.store(false, ordering: .relaxed)
            XCTAssertEqual(press("/panic", argument), [], "\(String(describing: argument))")
            XCTAssertTrue(host.isPanicked, "/panic \(String(describing: argument)) blacks out")
        }
    }

    func testResumePressesAndIgnoresReleases() {
        for release in Self.releases {
            host.panic()
            XCTAssertEqual(press("/resume", release), [])
            XCTAssertTrue(host.isPanicked, "/resume \(release) is a release: ignored")
        }
        for argument in Self.presses {
            host.panic()
            XCTAssertEqual(press("/resume", argument), [])
            XCTAssertFalse(host.isPanicked, "/resume \(String(describing: argument)) resumes")
        }
    }

    func testSessionAndTimerButtons() throws {
        try transport.load("two")
        for release in Self.releases {
            XCTAssertEqual(press("/session/play", release), [])
            XCTAssertEqual(transport.state, .idle, "/session/play \(release) is ignored")
        }
        XCTAssertEqual(press("/session/play", .float(1)), [])
        XCTAssertEqual(transport.state, .playing)
        XCTAssertEqual(press("/session/pause", .false), [])
        XCTAssertEqual(transport.state, .playing, "release ignored")
        XCTAssertEqual(press("/session/pause", .true), [])
        XCTAssertEqual(transport.state, .paused)
        XCTAssertEqual(press("/session/play", .int32(1)), [])
        XCTAssertEqual(press("/session/stop", .int32(0)), [])
        XCTAssertEqual(transport.state, .playing, "release ignored")
        XCTAssertEqual(press("/session/stop", .int32(1)), [])
        XCTAssertEqual(transport.state, .idle)

        try transport.setTimer(minutes: 5)
        func timer() -> OSCValue? { transport.report().first { $0.address == "/timer/remaining" }?.arguments.first }
        XCTAssertEqual(press("/timer/cancel", .float(0)), [])
        XCTAssertNotEqual(timer(), .float(-1), "release ignored")
        XCTAssertEqual(press("/timer/cancel", .float(1)), [])
        XCTAssertEqual(timer(), .float(-1), "cancelled")
    }

    func testPatternStopButton() throws {
        try host.playPattern(intensity: [Float](repeating: 0.5, count: 5000), sharpness: [Float](repeating: 0, count: 5000))
        _ = renderer.renderStereo(frames: 512)
        XCTAssertTrue(host.isPlayingPattern)
        XCTAssertEqual(press("/haptic/pattern/stop", .float(0)), [])
        XCTAssertTrue(host.isPlayingPattern, "release ignored")
        XCTAssertEqual(press("/haptic/pattern/stop", .float(1)), [])
        XCTAssertFalse(host.isPlayingPattern, "stopped on the press")
    }

    /// Not a button: a string, or two arguments, is an error naming what is accepted.
    func testOtherArgumentsAreRefused() {
        for (address, arguments) in [("/resume", [OSCValue.string("go")]), ("/session/stop", [.float(1), .float(1)])] {
            let actions = router.handle(TimedMessage(timetag: .immediately, message: OSCMessage(address, arguments)))
            guard case .error(_, let reason)? = actions.first else { XCTFail("\(address): no error"); continue }
            XCTAssertTrue(reason.contains("no argument or one int, float or bool"), reason)
        }
    }
}
