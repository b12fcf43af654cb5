import EntrainHRV
import XCTest

/// The reference-parity algorithm reproduces the EBS reference engine's test vectors: the
/// values its own tests assert and the values it computes on the same inputs (6 decimals).
final class ReferenceParityTests: XCTestCase {
    typealias V = ReferenceVectors
    let tolerance = 1e-6

    func metrics(_ x: [Double]) -> HRVUpdate.Metrics { HRVPipeline.metrics(x, algorithm: .reference) }

    func testTheSeriesAreBuiltAsTheReferenceBuildsThem() {
        XCTAssertEqual(Array(V.v1.prefix(5)), [1000, 1076, 1047, 953, 924])
        XCTAssertEqual(Array(V.v2.prefix(12)), [1000, 1039, 1069, 1080, 1069, 1039, 1000, 961, 931, 920, 931, 960])
        XCTAssertEqual(Array(V.v7.prefix(15)), [1000, 1114, 1070, 929, 885, 1000, 1114, 1070, 929, 885, 999, 1114, 1070, 929, 885])
        XCTAssertEqual(Array(V.v8.prefix(6)), [1000, 1086, 1086, 1000, 913, 913])
        XCTAssertEqual(V.v8[18], 999)
    }

    func testV1Oscillation() {
        let r = (1...8).map { RRStatistics.autocorrelation(V.v1, lag: $0) }
        for (got, want) in zip(r, [0.309017, -0.748737, -0.734460, 0.257514, 0.833333, 0.257514, -0.613901, -0.599624]) {
            XCTAssertEqual(got, want, accuracy: tolerance)
        }
        XCTAssertEqual(r[4], 25.0 / 30, accuracy: 1e-12, "r(5) is 25/30 exactly")
        let m = metrics(V.v1)
        XCTAssertEqual(m.amplitude, 152)
        XCTAssertEqual(m.entrainment.coupling, 0.833333, accuracy: tolerance)
        XCTAssertEqual(m.entrainment.value, 0.833333, accuracy: tolerance)
        XCTAssertEqual(m.entrainment.label, "[high entrainment]")
        XCTAssertEqual(BreathEstimate.peaks(V.v1), [1, 6, 11, 16, 21, 26])
        XCTAssertEqual(m.breath.rate!, 12.0, accuracy: tolerance)
        XCTAssertTrue(m.breath.steady)
        XCTAssertEqual(m.volatility, 0.056515, accuracy: tolerance)
        XCTAssertEqual(m.calm, 0.857076, accuracy: tolerance)
        XCTAssertEqual(m.calmLabel, "settled presence")
    }

    /// The live pipeline in reference mode computes the same on its 30-beat window.
    func testThePipelineInReferenceModeGivesTheVectorsValues() throws {
        var pipeline = HRVPipeline(settings: HRVSettings(algorithm: .reference))
        let u = try XCTUnwrap(pipeline.ingest(V.v1, at: 0))
        XCTAssertEqual(u.metrics.entrainment.value, 0.833333, accuracy: tolerance)
        XCTAssertEqual(u.metrics.breath.rate!, 12.0, accuracy: tolerance)
        XCTAssertEqual(u.metrics.calm, 0.857076, accuracy: tolerance)
        XCTAssertEqual(u.mode.soft.primaryLabel, "settled presence")
        XCTAssertEqual(pipeline.rejected, 0)
    }

    func testV2AntiPhaseCouplingIsNegativeAndEntrainmentZero() {
        let r = (4...8).map { RRStatistics.autocorrelation(V.v2, lag: $0) }
        for (got, want) in zip(r, [-0.402983, -0.721656, -0.833648, -0.722260, -0.430998]) { XCTAssertEqual(got, want, accuracy: tolerance) }
        let m = metrics(V.v2)
        XCTAssertEqual(m.entrainment.coupling, -0.402983, accuracy: tolerance)
        XCTAssertEqual(m.entrainment.value, 0)
        XCTAssertEqual(m.entrainment.label, "[low]")
        XCTAssertEqual(BreathEstimate.peaks(V.v2), [3, 15, 27])
        XCTAssertEqual(m.breath.rate!, 5.0, accuracy: tolerance)
        XCTAssertTrue(m.breath.steady)
        XCTAssertEqual(m.amplitude, 160)
        XCTAssertEqual(m.volatility, 0.056337, accuracy: tolerance)
        XCTAssertEqual(m.calm, 0.531832, accuracy: tolerance)
        XCTAssertEqual(m.calmLabel, "settling")
    }

    func testV3FlatV4ShortV5TenBeats() {
        let flat = metrics(V.v3)
        XCTAssertEqual(RRStatistics.autocorrelation(V.v3, lag: 3), 0)
        XCTAssertEqual(flat.volatility, 0)
        XCTAssertEqual(BreathEstimate.peaks(V.v3), [])
        XCTAssertEqual(flat.entrainment.label, "[low]")
        XCTAssertNil(flat.breath.rate)
        XCTAssertEqual(flat.calm, 0.19, accuracy: tolerance)
        XCTAssertEqual(flat.calmLabel, "heightened alertness")

        let short = metrics(V.v4)
        XCTAssertEqual(RRStatistics.autocorrelation(V.v4, lag: 5), 0)
        XCTAssertEqual(short.entrainment.value, 0)
        XCTAssertEqual(short.entrainment.label, "[insufficient data]")
        XCTAssertEqual(short.breath, .none)
        XCTAssertEqual(short.amplitude, 100)
        XCTAssertEqual(short.volatility, 0.040825, accuracy: tolerance)
        XCTAssertEqual(short.calm, 0.269588, accuracy: tolerance)
        XCTAssertEqual(short.calmLabel, "subtle alertness")

        let ten = metrics(V.v5)
        XCTAssertEqual(RRStatistics.autocorrelation(V.v5, lag: 8), -0.180839, accuracy: tolerance)
        XCTAssertEqual(RRStatistics.autocorrelation(V.v5, lag: 5), 0.5, accuracy: tolerance)
        XCTAssertEqual(ten.entrainment.value, 0.5, accuracy: tolerance)
        XCTAssertEqual(ten.entrainment.label, "[entrained]")
        XCTAssertEqual(ten.breath.rate!, 12.0, accuracy: tolerance)
        XCTAssertFalse(ten.breath.steady, "one peak gap is not steady")
        XCTAssertEqual(ten.calm, 0.513742, accuracy: tolerance)
    }

    func testV6NoisySeries() {
        let r = (4...8).map { RRStatistics.autocorrelation(V.v6, lag: $0) }
        for (got, want) in zip(r, [-0.000115, -0.088419, -0.200938, 0.016545, -0.095996]) { XCTAssertEqual(got, want, accuracy: tolerance) }
        let m = metrics(V.v6)
        XCTAssertEqual(m.entrainment.value, 0.016545, accuracy: tolerance)
        XCTAssertEqual(BreathEstimate.peaks(V.v6), [3, 8, 11, 14, 22, 24, 26, 28])
        XCTAssertEqual(m.breath.rate!, 19.896569, accuracy: tolerance)
        XCTAssertFalse(m.breath.steady)
        XCTAssertEqual(m.amplitude, 367)
        XCTAssertEqual(m.volatility, 0.157999, accuracy: tolerance)
        XCTAssertEqual(m.calm, 0.317618, accuracy: tolerance)
        XCTAssertEqual(m.calmLabel, "subtle alertness")
    }

    func testV7V8V9() {
        let v7 = metrics(V.v7)
        XCTAssertEqual(v7.entrainment.value, 0.874998, accuracy: tolerance)
        XCTAssertEqual(v7.entrainment.label, "[high entrainment]")
        XCTAssertEqual(v7.breath.rate!, 12.006604, accuracy: tolerance)
        XCTAssertTrue(v7.breath.steady)
        XCTAssertEqual(v7.amplitude, 229)
        XCTAssertEqual(v7.calm, 0.907455, accuracy: tolerance)

        let v8 = metrics(V.v8)
        XCTAssertEqual(RRStatistics.autocorrelation(V.v8, lag: 1), 0.500222, accuracy: tolerance)
        XCTAssertEqual(RRStatistics.autocorrelation(V.v8, lag: 6), 0.799997, accuracy: tolerance)
        XCTAssertEqual(v8.entrainment.value, 0.799997, accuracy: tolerance)
        XCTAssertEqual(BreathEstimate.peaks(V.v8), [], "plateaus are not peaks")
        XCTAssertEqual(v8.breath.rate!, 9.003601, accuracy: tolerance, "the zero-crossing fallback")
        XCTAssertFalse(v8.breath.steady)
        XCTAssertEqual(v8.calm, 0.647671, accuracy: tolerance)
        XCTAssertEqual(v8.calmLabel, "settling")

        // The weakness our default algorithm fixes: 6/min scores low on lags 4–8.
        let v9 = metrics(V.v9)
        XCTAssertEqual(v9.entrainment.value, 0.1038, accuracy: 1e-4)
        XCTAssertEqual(v9.entrainment.label, "[low]")
        XCTAssertEqual(RRStatistics.autocorrelation(V.v9, lag: 10), 0.50, accuracy: 0.01)
        XCTAssertEqual(v9.breath.rate!, 6.0214, accuracy: 1e-4)
        XCTAssertEqual(v9.calm, 0.3611, accuracy: 1e-4)
        XCTAssertEqual(v9.calmLabel, "transitional")
    }

    func testV10CalmScoreAndV11SmallCases() {
        func calm(_ amp: Double, _ ent: Double, _ steady: Bool, _ vol: Double) -> Double {
            CalmScore.score(entrainment: ent, steadiness: steady ? 1 : 0.3, amplitude: amp, volatility: vol, clampVolatilityTerm: false)
        }
        XCTAssertEqual(calm(160, 0.8, true, 0.03), 0.865, accuracy: tolerance)
        XCTAssertEqual(CalmScore.label(calm(160, 0.8, true, 0.03)), "settled presence")
        XCTAssertEqual(calm(40, 0.05, false, 0.2), 0.15, accuracy: tolerance)
        XCTAssertEqual(CalmScore.label(calm(40, 0.05, false, 0.2)), "heightened alertness")
        XCTAssertEqual(calm(0, 0, false, 1.0), 0, accuracy: tolerance)
        XCTAssertEqual(CalmScore.score(entrainment: 0, steadiness: 0.3, amplitude: 0, volatility: 1, clampVolatilityTerm: true), 0.09,
                       accuracy: tolerance, "the clamped volatility term")
        XCTAssertEqual(calm(200, 1, true, 0), 1.0, accuracy: tolerance)
        XCTAssertEqual(calm(80, 0.3, false, 0.1), 0.34, accuracy: tolerance)
        XCTAssertEqual(CalmScore.label(calm(80, 0.3, false, 0.1)), "subtle alertness")

        XCTAssertEqual(RRStatistics.amplitude([800, 900, 1000, 850, 950]), 200)
        XCTAssertEqual(RRStatistics.amplitude([500]), 0)
        XCTAssertEqual(RRStatistics.amplitude([]), 0)
        XCTAssertEqual(RRStatistics.volatility([800, 1000, 900, 1100, 850]), 0.115810, accuracy: tolerance)
        XCTAssertEqual(BreathEstimate.peaks([900, 900, 900, 1100, 900, 900, 900]), [3])
        XCTAssertEqual(BreathEstimate.peaks([1000, 1050]), [])
    }

    func testSixModeSoftMembership() {
        func soft(_ e: Double, _ s: Bool, _ a: Double, _ v: Double, t: Double = SixModes.temperature) -> SoftMode {
            SixModes.classify(entrainment: e, steady: s, amplitudeNorm: a, volatility: v, temperature: t)
        }
        let s1 = soft(0.85, true, 0.8, 0.02)
        for (got, want) in zip(s1.membership, [0.026629, 0.052694, 0.084732, 0.243046, 0.282379, 0.310520]) { XCTAssertEqual(got, want, accuracy: tolerance) }
        XCTAssertEqual(s1.primaryLabel, "settled presence")
        XCTAssertEqual(s1.ambiguity, 0.971858, accuracy: tolerance)
        XCTAssertEqual(s1.entropy, 0.851006, accuracy: tolerance)
        XCTAssertEqual(s1.membership.reduce(0, +), 1, accuracy: 1e-12)

        let s2 = soft(0.05, false, 0.1, 0.2)
        for (got, want) in zip(s2.membership, [0.356449, 0.295506, 0.213511, 0.066184, 0.044365, 0.023985]) { XCTAssertEqual(got, want, accuracy: tolerance) }
        XCTAssertEqual(s2.ambiguity, 0.939058, accuracy: tolerance)
        XCTAssertEqual(s2.entropy, 0.817637, accuracy: tolerance)

        let cases: [(SoftMode, String, Double, Double?, Double?)] = [
            (soft(0.5, true, 0.5, 0.05), "settling", 0.259958, 0.983640, 0.945795),
            (soft(0.4, false, 0.4, 0.1), "transitional", 0.261515, 0.988493, 0.942406),
            (soft(0.9, true, 0.9, 0.01), "settled presence", 0.333012, 0.953614, nil),
            (soft(0.8, true, 0.75, 0.01), "settled presence", 0.297232, nil, nil),
            (soft(0.65, true, 0.65, 0.03), "rhythmic settling", 0.265806, nil, nil),
            (soft(0.55, true, 0.55, 0.05), "settling", 0.259696, nil, nil),
            (soft(0.05, false, 0.15, 0.4), "heightened alertness", 0.350964, nil, nil),
        ]
        for (s, label, p, ambiguity, entropy) in cases {
            XCTAssertEqual(s.primaryLabel, label)
            XCTAssertEqual(s.membership[s.primary], p, accuracy: tolerance, label)
            if let ambiguity { XCTAssertEqual(s.ambiguity, ambiguity, accuracy: tolerance, label) }
            if let entropy { XCTAssertEqual(s.entropy, entropy, accuracy: tolerance, label) }
        }
        XCTAssertGreaterThan(cases[1].0.ambiguity, cases[2].0.ambiguity, "S4 is more ambiguous than S5")

        let tie = soft(0.75, true, 0.7, 0.05)
        XCTAssertEqual(tie.membership[4], 0.271991, accuracy: tolerance)
        XCTAssertEqual(tie.membership[5], 0.271991, accuracy: tolerance)
        XCTAssertEqual(tie.ambiguity, 1.0, accuracy: 1e-9)
        XCTAssertEqual(tie.primaryLabel, "rhythmic settling", "an exact tie goes to the earlier mode")

        let hot = soft(0.8, true, 0.75, 0.01, t: 1.0)
        XCTAssertEqual(hot.primaryLabel, "settled presence")
        XCTAssertEqual(hot.membership[hot.primary], 0.196557, accuracy: tolerance, "at T = 1 the upper modes cannot pass their entry")
        XCTAssertGreaterThan(soft(0.8, true, 0.75, 0.01).membership.max()!, hot.membership.max()!, "sharper T, larger maximum")
        XCTAssertNil(s1.shift)
        let shifted = SixModes.classify(entrainment: 0.05, steady: false, amplitudeNorm: 0.1, volatility: 0.2, previous: s1.membership)
        XCTAssertGreaterThan(shifted.shift!, 0)
    }

    func testTwoAxisModes() {
        let cases: [(Double, Double, String, Double?, Double?)] = [
            (0.78, 0.70, "settled presence", 0.641428, 0.496082),
            (0.12, 0.05, "reactive", 0.682936, nil),
            (0.30, 0.68, "engaged", 0.554147, nil),
            (0.72, 0.12, "constrained stillness", 0.577957, nil),
            (0.30, 0.05, "reactive", nil, nil),
            (0.78, 0.68, "settled presence", nil, 0.522231),
            (0.465, 0.40, "transitional", nil, 0.856024),
            (1.5, -0.2, "constrained stillness", 0.833012, nil),
        ]
        for (calm, coherence, label, p, ambiguity) in cases {
            let s = TwoAxisModes.classify(calm: calm, coherence: coherence)
            XCTAssertEqual(s.primaryLabel, label, "(\(calm), \(coherence))")
            if let p { XCTAssertEqual(s.membership[s.primary], p, accuracy: tolerance) }
            if let ambiguity { XCTAssertEqual(s.ambiguity, ambiguity, accuracy: tolerance) }
            XCTAssertEqual(s.membership.reduce(0, +), 1, accuracy: 1e-12)
        }
    }
}
