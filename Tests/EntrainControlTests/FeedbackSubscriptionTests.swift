@testable import EntrainControl
import XCTest

/// One target's queue: changes ahead of the full state, only the latest per address, within
/// the byte budget.
final class FeedbackSubscriptionTests: XCTestCase {
    func packet(_ address: String, _ value: Float) -> (address: String, bytes: [UInt8]) {
        (address, OSCCodec.encode(OSCMessage(address, [.float(value)])))
    }

    func testChangesGoFirstAndOnlyTheLatestValueOfAnAddressWaits() throws {
        var subscription = FeedbackSubscription(bytesPerSecond: 100_000, expires: nil, now: 0)
        subscription.queueFullState([packet("/a", 1), packet("/b", 1), packet("/c", 1)], now: 0)
        subscription.queueChanges([packet("/c", 2), packet("/d", 1)])
        subscription.queueChanges([packet("/d", 2)])
        let sent = subscription.take(now: 0, events: []).compactMap { try? OSCCodec.decode($0).first?.message }
        XCTAssertEqual(sent, [OSCMessage("/c", [.float(2)]), OSCMessage("/d", [.float(2)]),
                              OSCMessage("/a", [.float(1)]), OSCMessage("/b", [.float(1)])])
        XCTAssertFalse(subscription.wantsFullState(now: 0.5), "not twice within a second")
        XCTAssertTrue(subscription.wantsFullState(now: 1))
    }

    func testNoOneSecondGetsMoreThanTheBudget() {
        var budget = ByteBudget(perSecond: 1_000, start: 0)
        var sent: [(time: Double, bytes: Int)] = []
        for tick in 0..<5_000 {  // 10 s of 2 ms turns, always 40 bytes waiting
            let now = Double(tick) * 0.002
            while budget.take(40, now: now) { sent.append((now, 40)) }
        }
        for start in stride(from: 0.0, to: 9, by: 0.05) {
            let inWindow = sent.filter { $0.time >= start && $0.time < start + 1 }.reduce(0) { $0 + $1.bytes }
            XCTAssertLessThanOrEqual(inWindow, 1_000, "window from \(start) s")
        }
        XCTAssertGreaterThan(sent.reduce(0) { $0 + $1.bytes }, 8_800, "and it is used: 0.9 of the rate, plus the bucket")
    }
}
