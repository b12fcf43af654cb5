import EntrainControl
import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// The transport against an engine rendering offline: what /session and /timer commands do.
final class SessionTransportTests: XCTestCase {
    var folder: URL!
    var host: EngineHost!
    var transport: SessionTransport!
    var renderer: OfflineRenderer!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        { "name": "ramp", "stages": [ { "duration": 2, "voices": [ { "carrier": 200, "beat": 4 } ] },
                                       { "duration": 8, "transition": "linear", "voices": [ { "beat": 12 } ] } ] }
        """.write(to: folder.appendingPathComponent("ramp.json"), atomically: true, encoding: .utf8)
        try "{}".write(to: folder.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString).json"), atomically: true, encoding: .utf8)
        host = try TestEngine.host(["/master/fade-out": "0.5"])
        let engine = CurrentEngine(host)
        transport = SessionTransport(engine: engine, directories: [folder])
        renderer = OfflineRenderer(host: host, blockSize: 256)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Render `seconds`, ticking the transport as the run loop does; returns the events seen.
    @discardableResult
    func play(_ seconds: Double) throws -> [SessionTransport.Event] {
        var events: [SessionTransport.Event] = []
        for _ in 0..<Int(seconds * 48_000 / 960) {
            if let event = try transport.tick() { events.append(event) }
            _ = renderer.renderStereo(frames: 960)
        }
        return events
    }

    func beat() throws -> Double { try host.value(of: "/entrain/beat") }

    /// The beat in the next second of audio: right minus left peak (offset convention).
    func heardBeat() throws -> Double {
        let (l, r) = renderer.renderStereo(frames: 48_000)
        let left = Spectrum(l, sampleRate: 48_000).peak(from: 190, to: 210).frequency
        return Spectrum(r, sampleRate: 48_000).peak(from: 203, to: 216).frequency - left
    }

    func testLoadOnlyFromTheSessionDirectories() throws {
        XCTAssertNoThrow(try transport.load("ramp"))
        XCTAssertNoThrow(try transport.load("ramp.json"))
        for name in ["../x", "/etc/passwd", "sub/../../etc/passwd", ""] {
            XCTAssertThrowsError(try transport.load(name)) { XCTAssertTrue("\($0)".contains("outside the session directories"), "\($0)") }
        }
        XCTAssertThrowsError(try transport.load("nope")) { XCTAssertTrue("\($0)".contains("no session 'nope'"), "\($0)") }
        // A link inside the folder pointing outside it is refused too.
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.json"), withDestinationURL: URL(fileURLWithPath: "/etc/hostname"))
        XCTAssertThrowsError(try transport.load("link")) { XCTAssertTrue("\($0)".contains("outside"), "\($0)") }
    }

    func testPlayPauseSeekAndFinish() throws {
        try transport.load("ramp")
        XCTAssertThrowsError(try transport.pause())
        try transport.play()
        try play(6)  // 2 s hold, then 4 of the 8 s slide from 4 to 12 Hz: beat 8 now
        XCTAssertEqual(transport.state, .playing)
        try transport.pause()
        try play(0.2)
        XCTAssertEqual(try beat(), 8, accuracy: 0.05, "paused half-way up the slide")
        let frozen = try beat()
        try play(2)
        XCTAssertEqual(try beat(), frozen, "nothing moves while paused")
        try transport.play()  // resumes the slide where it stopped: 8 Hz, rising 1 Hz per second
        try play(2)
        XCTAssertEqual(try heardBeat(), 10.5, accuracy: 0.25, "the beat heard over the next second")
        try transport.seek(3)  // 1 s into the slide: 5 Hz, then on towards 12
        try play(0.1)
        XCTAssertEqual(try beat(), 12, accuracy: 1e-9, "the engine's target after a seek mid-slide is the slide's end")
        let events = try play(8)
        XCTAssertEqual(events, [.sessionFinished])
        XCTAssertEqual(transport.state, .finished)
        XCTAssertTrue(host.isStopped, "faded out at the end")
        try transport.play()  // again from the start, fading back in
        try play(1)
        XCTAssertFalse(host.isStopped)
        XCTAssertEqual(try beat(), 4)
    }

    func testTimerStopsWithAFade() throws {
        try transport.setTimer(minutes: 0.05)  // 3 s
        XCTAssertThrowsError(try transport.setTimer(minutes: 0))
        XCTAssertThrowsError(try transport.setTimer(minutes: .nan))
        let remaining = transport.report().last { $0.address == "/timer/remaining" }?.arguments.first?.number ?? 0
        XCTAssertEqual(remaining, 3, accuracy: 0.05)
        XCTAssertEqual(try play(4), [.timerExpired])
        XCTAssertTrue(host.isStopped)
    }

    func testOSCAddressesReachTheTransport() throws {
        let engine = host!, transport = self.transport!
        let router = OSCRouter(host: { engine }, frame: { _ in nil }, status: { [] }, transport: transport)
        func handle(_ address: String, _ arguments: [OSCValue] = []) -> [OSCRouter.Action] {
            router.handle(TimedMessage(timetag: .immediately, message: OSCMessage(address, arguments)))
        }
        XCTAssertEqual(handle("/session/load", [.string("ramp")]), [])
        XCTAssertEqual(handle("/session/play"), [])
        XCTAssertEqual(transport.state, .playing)
        guard case .error(_, let reason) = handle("/session/load", [.string("../../etc/passwd")]).first else { return XCTFail() }
        XCTAssertTrue(reason.contains("outside the session directories"))
        guard case .error(_, let seek) = handle("/session/seek", [.float(99)]).first else { return XCTFail() }
        XCTAssertTrue(seek.contains("10.0 s long"), seek)
        XCTAssertTrue(handle("/session/status").contains(.reply(OSCMessage("/session/state", [.string("playing")]))))
        XCTAssertEqual(handle("/timer/minutes", [.int32(30)]), [])
        XCTAssertEqual(handle("/session/stop"), [])
        XCTAssertEqual(transport.state, .idle)
    }

    /// Loading a broken file is refused with its problems, and what plays goes on untouched.
    func testABrokenFileNeverStopsWhatIsPlaying() throws {
        try "{ \"stages\": [ { \"duration\": 5, \"voices\": [ { \"carrier\": 9000 } ] } ] }"
            .write(to: folder.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try transport.load("ramp")
        try transport.play()
        try play(1)
        XCTAssertThrowsError(try transport.load("broken")) { error in
            XCTAssertTrue("\(error)".contains("broken.json:1:57: error: /entrain/carrier: 9000 Hz is out of range"), "\(error)")
        }
        XCTAssertEqual(transport.state, .playing)
        XCTAssertTrue(transport.report().contains(OSCMessage("/session/name", [.string("ramp")])))
        try play(3)
        XCTAssertEqual(try heardBeat(), 6.5, accuracy: 0.25, "still sliding up the ramp (1 Hz/s): 6 to 7 Hz over the next second")
    }
}
