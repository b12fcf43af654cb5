import EntrainService
import Foundation
import Synchronization
import TestSupport
import XCTest

/// The control side's threads: named where the system shows threads, stopped within a turn
/// (never a whole interval), woken early, and ending themselves cleanly.
final class ServiceThreadTests: XCTestCase {
    /// The names of this process's threads, as `ps -L`, `top -H` and /proc show them.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// An hour between turns: the thread is there under its name, and `stop` returns at once
    /// (the wait is cut short) with the thread gone; a second stop is a no-op.
    func testAServiceIsNamedAndStopsWithinItsWait() throws {
        let service = ServiceThread("entrain-test-a", every: 3600)
        let turns = Atomic<Int>(0)
        XCTAssertTrue(service.start { _ in turns.add(1, ordering: .relaxed) })
        XCTAssertFalse(service.start { _ in }, "started once")
        try waitFor("the first turn") { turns.load(ordering: .relaxed) == 1 }
        XCTAssertTrue(Self.threadNames().contains("entrain-test-a"), "\(Self.threadNames())")
        XCTAssertTrue(service.stop(), "it returns: the hour's wait was cut short")
        XCTAssertTrue(service.hasEnded)
        XCTAssertFalse(Self.threadNames().contains("entrain-test-a"))
        XCTAssertFalse(service.stop())
        XCTAssertEqual(turns.load(ordering: .relaxed), 1)
    }

    /// Two owners stopping it at once (a client ending while its pacer is turned off): the one
    /// that joins and the one that does not both return only once the last turn is over.
    func testASecondStopWaitsForTheTurnToFinish() throws {
        let service = ServiceThread("entrain-test-2")
        let inTurn = Atomic<Bool>(false), finished = Atomic<Bool>(false)
        service.start { _ in
            inTurn.store(true, ordering: .relaxed)
            usleep(200_000)  // a long turn (the work itself, not a wait for the test): both stops must outlast it
            finished.store(true, ordering: .relaxed)
        }
        try waitFor("the turn to start") { inTurn.load(ordering: .relaxed) }
        let other = Thread { service.stop() }
        other.start()
        try waitFor("the other stop to take the thread") { service.isStopping }
        service.stop()
        XCTAssertTrue(finished.load(ordering: .relaxed), "the second stop returned before the turn was over")
        XCTAssertTrue(service.hasEnded)
    }

    /// Names longer than the system's 15 bytes are cut, not refused.
    func testALongNameIsCutToFifteenBytes() throws {
        let service = ServiceThread("entrain-a-very-long-name", every: 3600)
        service.start { _ in }
        defer { service.stop() }
        try waitFor("the thread's name") { Self.threadNames().contains("entrain-a-very-") }
    }

    /// `wake` cuts a turn's wait short; the wait says whether the service goes on.
    func testWakeCutsAWaitShort() throws {
        let service = ServiceThread("entrain-test-w")
        let woken = Atomic<Int>(0)
        service.start { service in
            if service.wait(3600) { woken.add(1, ordering: .relaxed) }
        }
        defer { service.stop() }
        for n in 1...3 {
            service.wake()
            try waitFor("woken \(n) times") { woken.load(ordering: .relaxed) >= n }
        }
    }

    /// A turn that ends its service: the thread finishes and is gone, without a stop to join it.
    func testATurnEndsItsService() throws {
        let service = ServiceThread("entrain-test-e", every: 0.001)
        let turns = Atomic<Int>(0)
        service.start { service in
            if turns.add(1, ordering: .relaxed).newValue == 5 { service.end() }
        }
        try waitFor("the thread ends itself") { service.hasEnded }
        try waitFor("the thread is gone") { !Self.threadNames().contains("entrain-test-e") }
        XCTAssertEqual(turns.load(ordering: .relaxed), 5)
        XCTAssertFalse(service.stop(), "nothing left to stop")
    }
}
