import EntrainHRV
import Foundation
import TestSupport
import XCTest

/// HR, SDNN, RMSSD, pNN50 and the spectrum's bands against published cross-check values and
/// neurokit2's figures on our own series (Tests/Fixtures/hrv, made by
/// scripts/hrv-reference-figures.py).
final class StandardMeasuresTests: XCTestCase {
    typealias V = ReferenceVectors

    func testTimeDomainCrossCheckValues() {
        // (series, mean, SDNN with n − 1, RMSSD, pNN50 over n − 1 differences)
        let rows: [([Double], Double, Double, Double, Double)] = [
            (V.v1, 1000, 57.4816, 66.0835, 58.6207),
            (V.v2, 1000, 57.1359, 28.7968, 0),
            (V.v6, 844.3667, 135.6899, 189.1099, 62.0690),
            (V.alternating(800, 850, count: 64), 825, 25.1976, 50.0, 0),
            (V.alternating(700, 800, count: 64), 750, 50.3953, 100.0, 100),
            ([Double](repeating: 800, count: 32) + [Double](repeating: 900, count: 32), 850, 50.3953, 12.5988, 1.5873),
        ]
        for (i, (x, mean, sdnn, rmssd, pnn50)) in rows.enumerated() {
            let m = TimeDomain(x)
            XCTAssertEqual(m.meanRR, mean, accuracy: 1e-4, "row \(i)")
            XCTAssertEqual(m.sdnn, sdnn, accuracy: 1e-4, "row \(i)")
            XCTAssertEqual(m.rmssd, rmssd, accuracy: 1e-4, "row \(i)")
            XCTAssertEqual(m.pnn50, pnn50, accuracy: 1e-4, "row \(i): differences of exactly 50 ms do not count")
        }
        XCTAssertEqual(TimeDomain.heartRate(meanRR: 800), 75)
    }

    struct NeuroKit: Decodable {
        struct Figures: Decodable {
            let count: Int
            let HRV_MeanNN, HRV_SDNN, HRV_RMSSD, HRV_pNN50, HRV_LFn, HRV_HFn: Double
        }
        let series: [String: Figures]
    }

    func testAgreesWithNeuroKit2OnOurSeries() throws {
        let folder = Fixtures.ours("hrv")
        let nk = try JSONDecoder().decode(NeuroKit.self, from: Data(contentsOf: folder.appendingPathComponent("neurokit2.json")))
        XCTAssertEqual(nk.series.count, 3)
        for (name, want) in nk.series.sorted(by: { $0.key < $1.key }) {
            let rr = try ReferenceVectors.fixture(name)
            XCTAssertEqual(rr.count, want.count, name)
            let m = TimeDomain(rr)
            XCTAssertEqual(m.meanRR, want.HRV_MeanNN, accuracy: 1e-9, name)
            XCTAssertEqual(m.sdnn, want.HRV_SDNN, accuracy: 1e-9, name)
            XCTAssertEqual(m.rmssd, want.HRV_RMSSD, accuracy: 1e-9, name)
            // neurokit2 divides the count by the intervals, not the differences, and its
            // intervals (rebuilt from peak times in seconds) are off by float rounding, so a
            // difference of exactly 50 ms may count there: its count lies between ours strictly
            // above 50 and ours at 50 or above.
            let differences = zip(rr.dropFirst(), rr).map { abs($0 - $1) }
            let counted = (want.HRV_pNN50 * Double(rr.count) / 100).rounded()
            XCTAssertEqual(m.pnn50, 100 * Double(differences.filter { $0 > 50 }.count) / Double(rr.count - 1), accuracy: 1e-9)
            XCTAssertGreaterThanOrEqual(counted, Double(differences.filter { $0 > 50 }.count), name)
            XCTAssertLessThanOrEqual(counted, Double(differences.filter { $0 >= 50 }.count), name)
            // Bands: a different PSD method (Welch there), so the LF share of LF + HF within 0.05.
            let spectrum = try XCTUnwrap(RRSpectrum(rr))
            let lf = spectrum.power(in: 0.04...0.15), hf = spectrum.power(in: 0.15...0.4)
            let ours = lf / (lf + hf), theirs = want.HRV_LFn / (want.HRV_LFn + want.HRV_HFn)
            print("\(name): LF share ours \(ours) neurokit2 \(theirs)")
            XCTAssertEqual(ours, theirs, accuracy: 0.05, name)
        }
    }
}
