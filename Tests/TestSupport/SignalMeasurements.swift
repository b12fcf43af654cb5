import Foundation

/// Measurements on rendered audio.
public enum Measure {
    /// Index of the first sample where two signals differ (or where one ends), nil if identical.
    /// Tests assert on this rather than on whole arrays, so a failure prints one number.
    public static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        if let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset { return i }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    /// The first index from which every channel of a live take carries sound. Recorder ports are
    /// connected one after the other, and a connection reaches JACK's graph a cycle or two after
    /// it is accepted, so under load one channel can start a period after another.
    public static func firstSoundOnEveryChannel(_ take: [[Float]]) -> Int? {
        var start = 0
        for channel in take {
            guard let first = channel.firstIndex(where: { $0 != 0 }) else { return nil }
            start = max(start, first)
        }
        return start
    }

    public static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    public static func peak(_ x: ArraySlice<Float>) -> Float { x.reduce(0) { max($0, abs($1)) } }
    public static func peak(_ x: [Float]) -> Float { peak(x[...]) }

    public static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))).squareRoot()
    }

    /// Largest |x[n] - x[n-1]|: a discontinuity (click) shows as a jump far above what the
    /// signal's own frequency content allows.
    public static func largestJump(_ x: ArraySlice<Float>) -> Float {
        var largest: Float = 0
        var previous = x.first ?? 0
        for v in x.dropFirst() {
            largest = max(largest, abs(v - previous))
            previous = v
        }
        return largest
    }

    /// Frequency of the amplitude envelope between `low` and `high` Hz: the spectrum of x²
    /// (which carries the beat of two tones, or an AM rate) after removing its mean.
    public static func envelopeRate(_ x: [Float], sampleRate: Double, from low: Double, to high: Double) -> Double {
        let squared = x.map { $0 * $0 }
        let mean = squared.reduce(0, +) / Float(squared.count)
        let spectrum = Spectrum(squared.map { $0 - mean }, sampleRate: sampleRate, window: .hann)
        return spectrum.peak(from: low, to: high).frequency
    }
}
