import EntrainDSP
import XCTest

final class OceanTests: XCTestCase {
    let rate = 48_000.0

    /// Frames at which generator `g`'s envelope goes from 0 to positive (wave starts).
    func waveStarts(_ settings: OceanWaves.Settings, seconds: Double, generator g: Int, seed: UInt64 = 7)
        -> (starts: [Int], peak: Float) {
        var ocean = OceanWaves(sampleRate: rate, seed: seed, settings: settings)
        var starts: [Int] = []
        var previous = 0.0
        var peak: Float = 0
        for i in 0..<Int(seconds * rate) {
            let s = ocean.next()
            peak = max(peak, abs(s.left), abs(s.right))
            let e = ocean.waveEnvelope(generator: g)
            if previous == 0 && e > 0 { starts.append(i) }
            previous = e
        }
        return (starts, peak)
    }

    func testWavePeriodFollowsTheInterval() {
        // Interval longer than the duration: one wave every `interval` seconds.
        let settings = OceanWaves.Settings(intensity: 0.8, duration: 4, interval: 6)
        let (starts, peak) = waveStarts(settings, seconds: 60, generator: 0)
        XCTAssertGreaterThanOrEqual(starts.count, 8)
        for (a, b) in zip(starts, starts.dropFirst()) {
            XCTAssertEqual(Double(b - a) / rate, 6, accuracy: 0.01)
        }
        XCTAssertLessThan(peak, 1)
    }

    func testDurationLongerThanIntervalSetsThePeriod() {
        // The interval is checked only when idle, so the period is max(duration, interval).
        let settings = OceanWaves.Settings(intensity: 0.8, duration: 9, interval: 5)
        let (starts, _) = waveStarts(settings, seconds: 60, generator: 0)
        XCTAssertGreaterThanOrEqual(starts.count, 5)
        for (a, b) in zip(starts, starts.dropFirst()) {
            XCTAssertEqual(Double(b - a) / rate, 9, accuracy: 0.01)
        }
    }

    func testSecondGeneratorAddsItsOffset() {
        var settings = OceanWaves.Settings(intensity: 0.8, duration: 4, interval: 6)
        settings.wave2OffsetMin = 3; settings.wave2OffsetMax = 3
        let (starts, _) = waveStarts(settings, seconds: 60, generator: 1)
        XCTAssertGreaterThanOrEqual(starts.count, 5)
        for (a, b) in zip(starts, starts.dropFirst()) {
            XCTAssertEqual(Double(b - a) / rate, 9, accuracy: 0.01)
        }
    }

    /// The period read off the output itself: the 0.25 s RMS envelope of the left+right sum,
    /// autocorrelated over lags of 3–12 s, peaks at the wave interval.
    func testOutputEnvelopePeriod() {
        var settings = OceanWaves.Settings(intensity: 1, duration: 5, interval: 7)
        settings.wave2OffsetMin = 100; settings.wave2OffsetMax = 100  // generator 2: one wave only
        var ocean = OceanWaves(sampleRate: rate, seed: 11, settings: settings)
        let hop = Int(0.25 * rate)
        var envelope: [Double] = []
        var acc = 0.0
        for i in 0..<Int(90 * rate) {
            let s = ocean.next()
            let m = Double(s.left + s.right)
            acc += m * m
            if (i + 1) % hop == 0 { envelope.append(acc.squareRoot()); acc = 0 }
        }
        let tail = Array(envelope.dropFirst(80))  // skip generator 2's single early wave
        let mean = tail.reduce(0, +) / Double(tail.count)
        let centred = tail.map { $0 - mean }
        var best = (lag: 0, value: -Double.infinity)
        for lag in 12...48 {
            var sum = 0.0
            for i in 0..<(centred.count - lag) { sum += centred[i] * centred[i + lag] }
            sum /= Double(centred.count - lag)
            if sum > best.value { best = (lag, sum) }
        }
        XCTAssertEqual(Double(best.lag) * 0.25, 7, accuracy: 0.25)
    }

    func testLevelIsBoundedAndSilentAtZeroIntensity() {
        var settings = OceanWaves.Settings(intensity: 1, duration: 15, interval: 3, foam: 1, depth: 1)
        let (_, peak) = waveStarts(settings, seconds: 30, generator: 0)
        XCTAssertLessThan(peak, 1)
        XCTAssertGreaterThan(peak, 0.01)
        settings.intensity = 0
        var ocean = OceanWaves(sampleRate: rate, seed: 1, settings: settings)
        for _ in 0..<Int(20 * rate) { let s = ocean.next(); XCTAssertEqual(s.left, 0); XCTAssertEqual(s.right, 0) }
        XCTAssertEqual(ocean.wavesStarted(generator: 0), 0)  // nothing advances while silent
    }

    func testSeededIsDeterministic() {
        var settings = OceanWaves.Settings(intensity: 0.7)
        settings.durationMin = 3; settings.durationMax = 9
        func render(_ seed: UInt64) -> [Float] {
            var ocean = OceanWaves(sampleRate: rate, seed: seed, settings: settings)
            return (0..<Int(12 * rate)).map { _ in let s = ocean.next(); return s.left - 0.5 * s.right }
        }
        let a = render(5)
        XCTAssertEqual(a, render(5))
        XCTAssertNotEqual(a, render(6))
    }
}
