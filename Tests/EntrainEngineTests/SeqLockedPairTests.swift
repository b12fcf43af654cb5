import EntrainCore
import Foundation
import Synchronization
import XCTest

/// The sequence lock the JACK client shares its cycle anchor and the phrase grid through: a
/// writer thread and a reader thread on it at once for a second, and the plain cases.
final class SeqLockedPairTests: XCTestCase {
    /// Shared by the two threads (the pair's atomics are what synchronise them).
    final class Shared: @unchecked Sendable {
        let pair = SeqLockedPair()
        let stop = Atomic<Bool>(false)
    }

    func testNothingWrittenReadsNil() {
        let pair = SeqLockedPair()
        XCTAssertNil(pair.read())
        XCTAssertNil(pair.readRetrying())
    }

    func testAReadAfterAWriteReturnsExactlyWhatWasWritten() {
        let pair = SeqLockedPair()
        let words: [(UInt64, UInt64)] = [(0, 0), (UInt64(bitPattern: -48_000), 1_700_000_000_123_456),
                                         (UInt64.max, (1.0 / 3).bitPattern), (42, Double.nan.bitPattern)]
        for (a, b) in words {
            pair.write(a, b)
            XCTAssertTrue(pair.read().map { $0 == (a, b) } ?? false, "read() after write(\(a), \(b))")
            XCTAssertTrue(pair.readRetrying().map { $0 == (a, b) } ?? false, "readRetrying() after write(\(a), \(b))")
        }
        pair.clear()
        XCTAssertNil(pair.read(), "cleared: nothing until the next write")
        XCTAssertNil(pair.readRetrying())
        pair.write(7, 14)
        XCTAssertTrue(pair.read().map { $0 == (7, 14) } ?? false, "written again after clear")
    }

    /// The writer publishes (k, ~k) for k = 1, 2, 3, … as fast as it can; the reader, with both
    /// kinds of read, must never get a pair whose words disagree, nor go back in k.
    func testAConcurrentReaderNeverSeesATornPair() {
        let shared = Shared()
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            var k: UInt64 = 0
            while !shared.stop.load(ordering: .relaxed) {
                k &+= 1
                shared.pair.write(k, ~k)
            }
            writerDone.signal()
        }
        writer.start()

        var torn = 0, wentBack = 0, whole = 0, refused = 0, lastK: UInt64 = 0
        var distinct = Set<UInt64>()
        let end = Date().addingTimeInterval(1)
        var attempt = 0
        while Date() < end {
            for _ in 0..<1_000 {
                attempt += 1
                let got = attempt % 2 == 0 ? shared.pair.read() : shared.pair.readRetrying()
                guard let (k, other) = got else { refused += 1; continue }
                whole += 1
                if other != ~k { torn += 1 }
                if k < lastK { wentBack += 1 }
                lastK = k
                if distinct.count < 10_000 { distinct.insert(k) }
            }
        }
        shared.stop.store(true, ordering: .relaxed)
        writerDone.wait()

        XCTAssertEqual(torn, 0, "pairs whose two words came from different writes (of \(whole) read)")
        XCTAssertEqual(wentBack, 0, "reads that went back to an older write")
        XCTAssertGreaterThan(whole, 0)
        XCTAssertGreaterThan(distinct.count, 1, "the reader saw the writer's progress (\(refused) single reads refused meanwhile)")
    }
}
