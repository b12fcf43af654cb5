import EntrainEngine
import EntrainJACK
import Foundation
import Logging
import TestSupport
import XCTest

/// A sample-rate change is handled by preparing a new engine off the process thread and swapping
/// it in while JACK runs. The dummy driver cannot change its rate, so this drives the swap itself,
/// in process, on a real server: the output must switch to the new engine and the old one must be
/// handed back for freeing.
final class EngineSwapTests: LiveClientTestCase {
    func testANewEngineIsSwappedInWhileRunning() throws {
        let server = try self.server
        let client = try JackClient(options: .init(name: "swap", server: server.name), logger: Logger(label: "test"))
        defer { client.close() }
        var first: EngineHost? = try TestEngine.host(["/entrain/carrier": "300"], sampleRate: client.sampleRate)
        try client.activate(host: first!)
        weak var retired = first
        first = nil  // from here only the client holds it
        let rec = try recorder(seconds: 1)
        try rec.connect(["swap:entrainment_L"])
        let before = try rec.record()[0]

        XCTAssertNotNil(retired)
        client.replace(with: try TestEngine.host(["/entrain/carrier": "500"], sampleRate: client.sampleRate))
        usleep(100_000)
        let after = try rec.record()[0]
        XCTAssertEqual(Spectrum(before, sampleRate: 48_000).peak(from: 200, to: 600).frequency, 300, accuracy: 0.5)
        XCTAssertEqual(Spectrum(after, sampleRate: 48_000).peak(from: 200, to: 600).frequency, 500, accuracy: 0.5)

        client.collectRetiredEngines()
        XCTAssertNil(retired, "the old engine is freed once the process thread has let go of it")
    }
}
