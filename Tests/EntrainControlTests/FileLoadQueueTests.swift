import EntrainControl
import Foundation
import TestSupport
import XCTest

/// Files are read off the OSC thread: a big /session/load does not hold up /panic or /ping, and
/// what a sender sends after a load still happens after it.
final class FileLoadQueueTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-loads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// A session of `stages` one-second stages (about 80 bytes each), the last one broken if asked.
    func writeSession(_ name: String, stages: Int, brokenAtTheEnd: Bool) throws {
        var lines = [#"{ "format": "entrain-session/1", "name": "\#(name)", "stages": ["#]
        lines += (0..<stages).map { i in #"  { "name": "s\#(i)", "duration": "0:01", "transition": "hold", "voices": [ { "beat": 10 } ] },"# }
        lines.append(#"  { "name": "last", "duration": "\#(brokenAtTheEnd ? "bogus" : "0:01")" } ] }"#)
        try lines.joined(separator: "\n").write(to: directory.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
    }

    func server() throws -> OSCServerFixture {
        let directory = directory!
        return try OSCServerFixture(transport: { SessionTransport(engine: $0, directories: [directory]) })
    }

    func testPanicAndPingAreServedWhileABigSessionLoads() throws {
        try writeSession("big", stages: 10_000, brokenAtTheEnd: true)  // 0.8 MB
        let fixture = try server()
        let sender = try fixture.client()
        let sent = Date().timeIntervalSince1970
        sender.send("/session/load", [.string("big")])
        sender.send("/panic")
        sender.send("/ping", [.int32(7)])
        var replies: [(message: TimedMessage, arrival: Double)] = []
        let deadline = Date().addingTimeInterval(20)
        while !replies.contains(where: { $0.message.message.address == "/error" }), Date() < deadline {
            replies += sender.receiveTimed(timeout: 0.02)
        }
        let addresses = replies.map(\.message.message.address)
        guard let pong = addresses.firstIndex(of: "/pong"), let error = addresses.firstIndex(of: "/error") else {
            return XCTFail("\(addresses)")
        }
        XCTAssertLessThan(pong, error, "/panic and /ping were handled while the load was still under way")
        XCTAssertTrue(replies[error].message.message.arguments.last?.text?.contains("big.json:10002:33: error: \"duration\"") ?? false, "the load's problem comes back: \(replies[error].message.message)")
        print(String(format: "pong after %.1f ms, the load's /error after %.1f ms",
                     (replies[pong].arrival - sent) * 1000, (replies[error].arrival - sent) * 1000))
        fixture.renderOnePeriod()
        XCTAssertTrue(fixture.host.isPanicked)
    }

    func testWhatASenderSendsAfterALoadHappensAfterIt() throws {
        try writeSession("long", stages: 5_000, brokenAtTheEnd: false)
        let fixture = try server()
        let sender = try fixture.client()
        sender.send("/session/load", [.string("long")])
        sender.send("/session/play")
        sender.send("/session/status")
        let replies = sender.receive(timeout: 10) { $0.address == "/timer/remaining" }
        XCTAssertFalse(replies.contains { $0.address == "/error" }, "\(replies.filter { $0.address == "/error" })")
        XCTAssertTrue(replies.contains(OSCMessage("/session/state", [.string("playing")])), "\(replies)")
        XCTAssertTrue(replies.contains(OSCMessage("/session/name", [.string("long")])))
    }
}
