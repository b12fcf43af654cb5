import EntrainControl
import EntrainEngine
import Foundation
import TestSupport
import XCTest

/// A subscribe is not an amplifier: what follows it is paced by a byte budget per target, and a
/// UDP subscription lapses unless renewed (fixed --osc-feedback targets never do).
final class FeedbackLimitsTests: XCTestCase {
    func testTheFullStateIsPacedByTheBudgetAndAllOfItArrives() throws {
        // The engine's state is about 9 KB (with the ambient keys, about 40 KB against the
        // default 16 KB/s): a budget of 2 KB/s spreads it over about five seconds.
        let budget = 2_048
        let fixture = try OSCServerFixture { $0.feedbackBytesPerSecond = budget }
        let subscriber = try fixture.client()
        subscriber.send("/osc/subscribe")
        // Everything read within a second of sending was sent within one second.
        let firstSecond = subscriber.receive(timeout: 1)
        let bytes = firstSecond.reduce(0) { $0 + OSCCodec.encode($1).count }
        XCTAssertGreaterThan(bytes, budget / 2, "the budget is used")
        // The test's second and the server's do not start on the same instant: one more small
        // message (a value is 20–60 bytes) may fall inside ours (2,052 of 2,048 seen under load).
        XCTAssertLessThanOrEqual(bytes, budget + 64, "at most \(budget) bytes (and one message) in the first second")

        // Paced, not cut: every parameter and its /norm arrive in the following seconds.
        let wanted = Set(Engine.parameterTable.entries.flatMap { [$0.descriptor.address, $0.descriptor.address + "/norm"] })
        var seen = Set(firstSecond.map(\.address))
        let deadline = Date().addingTimeInterval(15)
        while !wanted.isSubset(of: seen), Date() < deadline {
            seen.formUnion(subscriber.receive(timeout: 0.5).map(\.address))
        }
        XCTAssertEqual(wanted.subtracting(seen), [], "the whole state arrived")
    }

    func testAnUnrenewedSubscriptionLapsesAndARenewedOneDoesNot() throws {
        let fixed = try OSCTestClient(targetPort: 9)
        let fixture = try OSCServerFixture {
            $0.subscriptionLifetime = 1
            $0.feedback = [SocketAddress(host: "127.0.0.1", port: Int(fixed.port))!]
        }
        let lapsing = try fixture.client(), renewing = try fixture.client()
        lapsing.send("/osc/subscribe")
        renewing.send("/osc/subscribe")
        var renewedMeters = 0
        for _ in 0..<6 {  // 2.4 s: past the lifetime
            renewing.send("/osc/subscribe")
            renewedMeters += renewing.receive(timeout: 0.4).filter { $0.address == "/meter/entrainment" }.count
        }
        XCTAssertGreaterThan(lapsing.receive(timeout: 0.3).count, 0, "it was getting feedback (read now: it waited in the socket)")
        XCTAssertEqual(lapsing.receive(timeout: 1).count, 0, "nothing after the lifetime")
        XCTAssertGreaterThan(renewing.receive(timeout: 1).filter { $0.address == "/meter/entrainment" }.count, 5, "renewed: still fed")
        XCTAssertGreaterThan(renewedMeters, 20)
        XCTAssertGreaterThan(fixed.receive(timeout: 1).filter { $0.address == "/meter/entrainment" }.count, 5,
                             "a --osc-feedback target never lapses")
    }
}
