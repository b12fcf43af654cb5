import Foundation

/// The beat filter's activation: spectral flux over log-spaced bands (twelve an octave from
/// 30 Hz to 16 kHz, the log magnitudes of a band's bins averaged), each band against the
/// largest of itself and its two neighbours two hops back (SuperFlux, Böck & Widmer 2013): a
/// vibrato or a slide moves energy into a neighbouring band without counting as an attack.
/// Everything is allocated at init; `process` is real-time safe.
struct BandFlux {
    let bandCount: Int
    private let bins: Int
    /// Each bin's band (-1: outside the bands) and that band's weight (1 / its bins).
    private let bandOfBin: UnsafeMutablePointer<Int32>
    private let bandWeight: UnsafeMutablePointer<Float>
    /// The last three hops' band values, as a ring.
    private let history: UnsafeMutablePointer<Float>
    private var slot = 0
    static var lag: Int { 2 }

    init(sampleRate: Double, windowSize: Int, bins: Int, perOctave: Double = 12, low: Double = 30, high: Double = 16000) {
        self.bins = bins
        bandOfBin = .allocate(capacity: bins)
        var raw = [Int](repeating: -1, count: bins)
        for k in 0..<bins {
            let f = Double(k) * sampleRate / Double(windowSize)
            guard f >= low, f < high else { continue }
            raw[k] = Int((log2(f / low) * perOctave).rounded(.down))
        }
        // Bands no bin falls in are dropped (at low frequencies a bin spans several).
        let used = Array(Set(raw.filter { $0 >= 0 })).sorted()
        bandCount = used.count
        bandWeight = .allocate(capacity: max(1, used.count))
        for (index, band) in used.enumerated() {
            bandWeight[index] = 1 / Float(raw.filter { $0 == band }.count)
        }
        for k in 0..<bins { bandOfBin[k] = raw[k] < 0 ? -1 : Int32(used.firstIndex(of: raw[k])!) }
        history = .allocate(capacity: (Self.lag + 1) * max(1, used.count))
        history.initialize(repeating: 0, count: (Self.lag + 1) * max(1, used.count))
    }

    func deallocate() {
        bandOfBin.deallocate()
        bandWeight.deallocate()
        history.deallocate()
    }

    /// The flux of one hop's log magnitudes (≥ 0).
    mutating func process(magnitudes: UnsafePointer<Float>) -> Float {
        let rows = Self.lag + 1
        let current = history + slot * bandCount
        let reference = history + ((slot + 1) % rows) * bandCount  // `lag` hops back
        current.update(repeating: 0, count: bandCount)
        for k in 0..<bins {
            let band = Int(bandOfBin[k])
            if band >= 0 { current[band] += magnitudes[k] * bandWeight[band] }
        }
        var flux: Float = 0
        for b in 0..<bandCount {
            var before = reference[b]
            if b > 0 { before = max(before, reference[b - 1]) }
            if b + 1 < bandCount { before = max(before, reference[b + 1]) }
            flux += max(0, current[b] - before)
        }
        slot = (slot + 1) % rows
        return flux
    }
}
