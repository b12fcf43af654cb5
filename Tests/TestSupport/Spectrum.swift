import CFFTW
import Foundation

/// Magnitude spectrum of a real signal through FFTW, with a window, for measuring what we render.
public struct Spectrum {
    public enum Window { case hann, blackmanHarris }

    public let sampleRate: Double
    public let size: Int
    /// Linear magnitude per bin, normalised so a full-scale sine reads about 1 at its peak.
    public let magnitudes: [Double]

    public var binWidth: Double { sampleRate / Double(size) }

    public init(_ signal: [Float], sampleRate: Double, window: Window = .blackmanHarris) {
        self.sampleRate = sampleRate
        size = signal.count
        let n = signal.count
        let input = fftw_alloc_real(n)!
        let output = fftw_alloc_complex(n / 2 + 1)!
        defer { fftw_free(input); fftw_free(output) }
        var windowSum = 0.0
        for i in 0..<n {
            let x = Double(i) / Double(n)
            let w: Double
            switch window {
            case .hann: w = 0.5 - 0.5 * cos(2 * .pi * x)
            case .blackmanHarris:
                w = 0.35875 - 0.48829 * cos(2 * .pi * x) + 0.14128 * cos(4 * .pi * x) - 0.01168 * cos(6 * .pi * x)
            }
            windowSum += w
            input[i] = Double(signal[i]) * w
        }
        let plan = fftw_plan_dft_r2c_1d(Int32(n), input, output, UInt32(FFTW_ESTIMATE))
        fftw_execute(plan)
        fftw_destroy_plan(plan)
        var m = [Double](repeating: 0, count: n / 2 + 1)
        let scale = 2 / windowSum
        for k in 0...(n / 2) {
            let re = output[k].0, im = output[k].1
            m[k] = (re * re + im * im).squareRoot() * scale
        }
        magnitudes = m
    }

    public func bin(of frequency: Double) -> Int { Int((frequency / binWidth).rounded()) }

    /// The strongest component between `low` and `high` Hz, located to a fraction of a bin by
    /// fitting a parabola to the log magnitudes around the peak bin.
    public func peak(from low: Double, to high: Double) -> (frequency: Double, magnitude: Double) {
        let first = max(1, bin(of: low)), last = min(magnitudes.count - 2, bin(of: high))
        var best = first
        for k in first...last where magnitudes[k] > magnitudes[best] { best = k }
        let a = log(magnitudes[best - 1] + 1e-30), b = log(magnitudes[best] + 1e-30), c = log(magnitudes[best + 1] + 1e-30)
        let denominator = a - 2 * b + c
        let offset = denominator == 0 ? 0 : 0.5 * (a - c) / denominator
        return ((Double(best) + offset) * binWidth, magnitudes[best])
    }

    /// The largest magnitude outside ±`guardHz` of every listed frequency, between `low` and `high`.
    public func largest(excluding frequencies: [Double], guardHz: Double, from low: Double, to high: Double) -> (frequency: Double, magnitude: Double) {
        var best = (frequency: 0.0, magnitude: 0.0)
        for k in max(1, bin(of: low))...min(magnitudes.count - 1, bin(of: high)) {
            let f = Double(k) * binWidth
            if frequencies.contains(where: { abs($0 - f) <= guardHz }) { continue }
            if magnitudes[k] > best.magnitude { best = (f, magnitudes[k]) }
        }
        return best
    }
}
