@testable import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The message rate limit is per sender (address and port), bounded in memory, and never
/// stops /panic.
final class OSCRateLimitTests: XCTestCase {
    /// One socket floods at ten times the limit while a second socket on the same host pings:
    /// every ping is answered and the flood is cut.
    func testAFloodFromOneSenderLeavesAnotherSendersPingsAnswered() throws {
        let fixture = try OSCServerFixture { $0.messageRate = 500 }
        let flooder = try fixture.client(), pinger = try fixture.client()
        let query = OSCCodec.encode(OSCMessage("/entrain/carrier"))
        let pings = 100
        for i in 0..<pings {
            for _ in 0..<50 { flooder.send(bytes: query) }  // 5,000 per second
            pinger.send("/ping", [.int32(Int32(i))])
            usleep(10_000)
        }
        let pongs = Set(pinger.receive(timeout: 1).filter { $0.address == "/pong" }.compactMap { $0.arguments.first?.number })
        XCTAssertEqual(pongs.count, pings, "every ping of the quiet sender is answered")
        XCTAssertGreaterThan(fixture.server.statistics.rateLimited, 2_000, "the flood was cut")
    }

    /// A /panic in a packet the rate limit drops still acts, and nothing else in that packet
    /// does. At one message a second the sender's allowance is spent by its first query and
    /// comes back a second later, so the bundle sent right after a burst is dropped for sure
    /// (at 500 a second a token came back within 2 ms: a server thread that read the bundle a
    /// moment late under load let it through once).
    func testAPanicInARateLimitedPacketActsAndNothingElseInItDoes() throws {
        let fixture = try OSCServerFixture { $0.messageRate = 1 }
        let flooder = try fixture.client()
        let query = OSCCodec.encode(OSCMessage("/entrain/carrier"))
        for _ in 0..<20 { flooder.send(bytes: query) }
        flooder.send(bytes: OSCCodec.encodeBundle([OSCMessage("/entrain/carrier", [.float(300)]), OSCMessage("/panic")],
                                                  timetag: .immediately))
        // The first query spends the allowance; the other 19 and the bundle are dropped (counted
        // after the bundle's /panic has acted).
        try waitFor("the queries after the first and the bundle dropped", timeout: 5) { fixture.server.statistics.rateLimited >= 20 }
        XCTAssertEqual(fixture.server.statistics.packets, 21)
        fixture.renderOnePeriod()
        XCTAssertTrue(fixture.host.isPanicked, "the /panic in a rate-limited packet acted")
        XCTAssertEqual(try fixture.host.value(of: "/entrain/carrier"), 200, "nothing else in that packet did")
    }

    /// Many senders cannot grow the table without bound, and inventing new ones does not buy
    /// a new allowance each once the table is full.
    func testTheLimiterStaysBoundedAndNewcomersShareAnOverflowBucket() {
        var limiter = RateLimiter<Int>(rate: 1, burst: 1, capacity: 4)
        for sender in 0..<4 { XCTAssertTrue(limiter.allow(sender, now: 0)) }
        XCTAssertTrue(limiter.allow(100, now: 0), "the first newcomer over capacity takes the overflow token")
        XCTAssertFalse(limiter.allow(101, now: 0), "the next shares the same, now empty, bucket")
        for sender in 1_000..<11_000 { _ = limiter.allow(sender, now: 0.5) }
        XCTAssertEqual(limiter.trackedKeys, 4, "10,000 senders, 4 entries")
        XCTAssertFalse(limiter.allow(0, now: 0.5), "a tracked sender keeps its own (empty) bucket")
        // Two seconds later every bucket has refilled: they are forgotten to make room.
        XCTAssertTrue(limiter.allow(200, now: 2.5))
        XCTAssertTrue(limiter.allow(201, now: 2.5), "a newcomer gets its own bucket again")
        XCTAssertLessThanOrEqual(limiter.trackedKeys, 4)
    }

    func testPanicIsFoundInMessagesAndBundlesOnly() {
        func scan(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes(PanicScan.mayContainPanic) }
        XCTAssertTrue(scan(OSCCodec.encode(OSCMessage("/panic"))))
        XCTAssertTrue(scan(OSCCodec.encode(OSCMessage("/panic", [.float(1)]))))
        XCTAssertTrue(scan(OSCCodec.encodeBundle([OSCMessage("/entrain/beat", [.float(5)]), OSCMessage("/panic")], timetag: .immediately)))
        XCTAssertFalse(scan(OSCCodec.encode(OSCMessage("/panicky"))))
        XCTAssertFalse(scan(OSCCodec.encode(OSCMessage("/entrain/beat", [.float(5)]))))
    }
}
