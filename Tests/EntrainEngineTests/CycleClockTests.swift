import EntrainCore
import EntrainDSP
import XCTest

/// The frame-to-time line behind OSC time tags: steady through JACK's jittery cycle estimates,
/// following a real drift, restarted by a real step.
final class CycleClockTests: XCTestCase {
    let rate = 48_000.0, period = 256
    var periodMicros: Double { Double(period) * 1e6 / rate }

    /// Cycle k at k periods, its estimate off by `error(k)` µs; returns each cycle's line time
    /// less the true start.
    func run(cycles: Int, error: (Int) -> Double) -> [Double] {
        var clock = CycleClock()
        return (0..<cycles).map { k in
            let truth = 1_000_000 + Double(k) * periodMicros
            let line = clock.cycle(engineFrame: Int64(k * period), cycleMicros: UInt64(truth + error(k)),
                                   sampleRate: rate, periodFrames: period)
            return Double(line) - truth
        }
    }

    func testJitterIsSmoothedSoTimeTagsKeepTheirSpacing() {
        // Estimates 500 µs (24 frames) early and late in turn: the line within 30 µs of the truth.
        let alternating = run(cycles: 1000) { $0 % 2 == 0 ? 500 : -500 }.dropFirst(100)
        XCTAssertLessThan(alternating.map(abs).max() ?? .infinity, 30)
        // At random within ±500 µs: two cycles' lines (where two time tags mapped a cycle apart
        // take their frames from) differ by under 40 µs, where the estimates differ by up to 1 ms.
        var random = RandomSource(seed: 7)  // seeded: the same jitter in every run
        let scattered = run(cycles: 2000) { _ in 500 * Double(random.nextBipolar()) }.dropFirst(100)
        XCTAssertLessThan(zip(scattered, scattered.dropFirst()).map { abs($1 - $0) }.max() ?? .infinity, 40)
        XCTAssertLessThan(scattered.map(abs).max() ?? .infinity, 300, "and near the truth")
    }

    func testASteadyDriftIsFollowed() {
        // A card 100 ppm fast against the nominal rate: the line follows its starts, under 15 µs behind.
        let ppm = periodMicros * 100e-6
        let line = run(cycles: 5000) { Double($0) * ppm }
        XCTAssertEqual(line.last ?? .infinity, 4999 * ppm, accuracy: 15)
    }

    func testAMissedCycleRestartsTheLine() {
        var clock = CycleClock()
        for k in 0..<50 {
            _ = clock.cycle(engineFrame: Int64(k * period), cycleMicros: UInt64(Double(k) * periodMicros), sampleRate: rate, periodFrames: period)
        }
        // The client missed cycle 50: the engine's frame stands still while JACK's time goes a period on.
        let line = clock.cycle(engineFrame: Int64(50 * period), cycleMicros: UInt64(51 * periodMicros), sampleRate: rate, periodFrames: period)
        XCTAssertEqual(Double(line), 51 * periodMicros, accuracy: 1, "taken as it is, not smoothed")
    }
}
