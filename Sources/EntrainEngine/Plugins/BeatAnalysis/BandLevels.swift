import Foundation

/// Band levels for light (`/beat/bands`, the pixel outputs' spectrum): `count` log-spaced bands
/// from 50 Hz to 16 kHz over the analysis's own FFT, each the mean of its bins' log magnitudes
/// scaled so a full-scale sine in a band reads about 1. A band narrower than a bin (the lowest,
/// at 512-point windows) takes the nearest bin. Fast attack, a 120 ms release (a VU's peak), so a
/// reader sampling now and then misses no hit.
/// Everything is allocated at init; `process` is real-time safe.
struct BandLevels {
    static var count: Int { 16 }
    private let bins: Int
    /// Each band's first bin and bin count.
    private let first: UnsafeMutablePointer<Int32>
    private let width: UnsafeMutablePointer<Int32>
    /// The levels now (0…1).
    let levels: UnsafeMutablePointer<Float>
    private let release: Float

    init(sampleRate: Double, windowSize: Int, bins: Int, hopSize: Int, low: Double = 50, high: Double = 16000) {
        self.bins = bins
        first = .allocate(capacity: Self.count)
        width = .allocate(capacity: Self.count)
        levels = .allocate(capacity: Self.count)
        levels.initialize(repeating: 0, count: Self.count)
        let binHz = sampleRate / Double(windowSize)
        for b in 0..<Self.count {
            let lo = low * pow(high / low, Double(b) / Double(Self.count))
            let hi = low * pow(high / low, Double(b + 1) / Double(Self.count))
            var start = Int((lo / binHz).rounded(.up)), end = Int((hi / binHz).rounded(.up))
            if end <= start { start = min(bins - 1, Int((sqrt(lo * hi) / binHz).rounded())); end = start + 1 }
            first[b] = Int32(min(start, bins - 1))
            width[b] = Int32(max(1, min(end, bins) - min(start, bins - 1)))
        }
        release = Float(exp(-Double(hopSize) / (0.12 * sampleRate)))
    }

    func deallocate() {
        first.deallocate()
        width.deallocate()
        levels.deallocate()
    }

    /// One hop's log magnitudes (log(1 + 1000·|X|/(N/4)): a full-scale sine's bin reads log 1001).
    mutating func process(magnitudes: UnsafePointer<Float>) {
        let scale: Float = 1 / 6.909
        for b in 0..<Self.count {
            let start = Int(first[b]), n = Int(width[b])
            var sum: Float = 0
            for k in start..<(start + n) { sum += magnitudes[k] }
            let x = min(1, sum / Float(n) * scale)
            levels[b] = max(x, levels[b] * release)
        }
    }

    /// Silence or a stopped analysis: the levels fall to 0.
    mutating func clear() { levels.update(repeating: 0, count: Self.count) }
}
