import Foundation

/// Noise beds for the noisy and no-beat items.
enum BackgroundSounds {
    static func white(count: Int, random: inout CorpusRandom) -> [Float] {
        (0..<count).map { _ in random.bipolar() }
    }

    /// Pink (-3 dB/octave) noise by the Voss-McCartney method: 16 random rows, row k redrawn
    /// every 2^k samples, summed with fresh white noise. Good to about ±1 dB, which is plenty
    /// for a background bed.
    static func pink(count: Int, random: inout CorpusRandom) -> [Float] {
        var rows = (0..<16).map { _ in random.bipolar() }
        var sum = rows.reduce(0, +)
        var out = [Float](repeating: 0, count: count)
        for n in 0..<count {
            // The row to redraw is the number of trailing zeros of the counter: row 0 every
            // other sample, row 1 every fourth, and so on.
            let k = (n + 1).trailingZeroBitCount
            if k < rows.count {
                let fresh = random.bipolar()
                sum += fresh - rows[k]
                rows[k] = fresh
            }
            out[n] = sum + random.bipolar()
        }
        return out
    }

    /// Scale `signal` in place so its RMS is `rms`; silence stays silence.
    static func setRMS(_ signal: inout [Float], to rms: Double) {
        let current = Self.rms(signal)
        guard current > 0 else { return }
        let gain = Float(rms / current)
        for i in signal.indices { signal[i] *= gain }
    }

    static func rms(_ signal: [Float]) -> Double {
        guard !signal.isEmpty else { return 0 }
        return (signal.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(signal.count)).squareRoot()
    }
}
