import Foundation

/// The power spectrum of an RR series: the tachogram (each interval at the time its beat
/// ends) interpolated linearly every 0.5 s, its straight-line trend removed, a Hann window,
/// then a periodogram zero-padded to 1024 points (0.002 Hz apart). Only ratios of its powers
/// are used, so its scale is arbitrary.
public struct RRSpectrum: Sendable {
    public static let sampleRate = 2.0
    public static let length = 1024
    /// Bins up to this frequency are computed (the bands stop at 0.4 Hz).
    public static let highest = 0.5

    public let binWidth: Double
    public let power: [Double]

    /// `times`: when each beat ended, in seconds (nil: one after the other, as the intervals
    /// add up; a series with rejected beats passes its own, gaps included). nil when the series
    /// spans less than `minimumSeconds`.
    public init?(_ rr: [Double], times given: [Double]? = nil, minimumSeconds: Double = 20) {
        var times = given ?? []
        if given == nil { var t = 0.0; for r in rr { t += r / 1000; times.append(t) } }
        guard rr.count >= 4, times.count == rr.count, let first = times.first, let t = times.last, t - first >= minimumSeconds else { return nil }
        let count = min(Self.length, Int((t - first) * Self.sampleRate) + 1)
        var samples = [Double](repeating: 0, count: count)
        var j = 0
        for i in 0..<count {
            let at = t - Double(count - 1 - i) / Self.sampleRate  // the newest sample on the last beat
            while j < times.count - 2 && times[j + 1] < at { j += 1 }
            let span = times[j + 1] - times[j]
            let w = span > 0 ? min(1, max(0, (at - times[j]) / span)) : 0
            samples[i] = rr[j] + w * (rr[j + 1] - rr[j])
        }
        Self.removeTrend(&samples)
        for i in 0..<count { samples[i] *= 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(max(1, count - 1))) }
        binWidth = Self.sampleRate / Double(Self.length)
        let bins = Int(Self.highest / binWidth) + 1
        power = (0..<bins).map { k in
            let step = 2 * Double.pi * Double(k) / Double(Self.length)
            // e^{-i·step·n} by repeated rotation: one cos and sin per bin, not per sample.
            let wr = cos(step), wi = -sin(step)
            var re = 0.0, im = 0.0, zr = 1.0, zi = 0.0
            for x in samples {
                re += x * zr
                im += x * zi
                (zr, zi) = (zr * wr - zi * wi, zr * wi + zi * wr)
            }
            return (re * re + im * im) / Double(count)
        }
    }

    static func removeTrend(_ y: inout [Double]) {
        let n = Double(y.count)
        let meanX = (n - 1) / 2, meanY = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (i, v) in y.enumerated() { sxy += (Double(i) - meanX) * (v - meanY); sxx += (Double(i) - meanX) * (Double(i) - meanX) }
        let slope = sxx > 0 ? sxy / sxx : 0
        for i in y.indices { y[i] -= meanY + slope * (Double(i) - meanX) }
    }

    func bins(_ band: ClosedRange<Double>) -> ClosedRange<Int> {
        let lo = max(0, Int((band.lowerBound / binWidth).rounded(.up)))
        let hi = min(power.count - 1, Int((band.upperBound / binWidth).rounded(.down)))
        return lo...max(lo, hi)
    }

    /// The power in `band` (Hz), both ends included.
    public func power(in band: ClosedRange<Double>) -> Double {
        bins(band).reduce(0) { $0 + power[$1] } * binWidth
    }

    /// The frequency of the highest bin in `band`, refined by a parabola through its neighbours.
    public func peak(in band: ClosedRange<Double>) -> Double {
        let range = bins(band)
        let k = range.max { power[$0] < power[$1] } ?? range.lowerBound
        guard k > 0, k < power.count - 1 else { return Double(k) * binWidth }
        let a = power[k - 1], b = power[k], c = power[k + 1]
        let denominator = a - 2 * b + c
        let offset = denominator != 0 ? 0.5 * (a - c) / denominator : 0
        return (Double(k) + max(-0.5, min(0.5, offset))) * binWidth
    }
}

/// How much of the heart rhythm's slow variation is one clean oscillation. The peak is the
/// strongest frequency in 0.04–0.26 Hz (2.4–15.6 cycles a minute) and its power the power
/// within ±0.015 Hz of it.
/// - `coherence` (0…1): the peak's share of the power in 0.04–0.26 Hz (widened to include the
///   whole peak window when the peak sits at an edge).
/// - `ratio`: the HeartMath-style (peak / (total − peak))², total being 0.0033–0.4 Hz.
public struct SpectralCoherence: Sendable, Equatable {
    public var coherence: Double
    public var ratio: Double
    public var peakFrequency: Double

    public static let band = 0.04...0.26
    public static let halfWidth = 0.015
    public static let total = 0.0033...0.4

    public init(_ spectrum: RRSpectrum) {
        let f = spectrum.peak(in: Self.band)
        let peakPower = spectrum.power(in: (f - Self.halfWidth)...(f + Self.halfWidth))
        let around = spectrum.power(in: min(Self.band.lowerBound, f - Self.halfWidth)...max(Self.band.upperBound, f + Self.halfWidth))
        let total = spectrum.power(in: Self.total)
        peakFrequency = f
        coherence = around > 0 ? min(1, peakPower / around) : 0
        ratio = total > peakPower ? pow(peakPower / (total - peakPower), 2) : 0
    }
}
