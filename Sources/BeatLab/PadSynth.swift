import Foundation

/// Sustained pad chords: soft harmonic tones with a slow attack, so a chord change is a
/// spectral change without a percussive onset (a trap for onset detectors, not an onset in the truth).
enum PadSynth {
    /// A minor, F major, C major, G major, voiced within about 200-500 Hz.
    static let progression: [[Double]] = [
        [220.00, 261.63, 329.63],
        [174.61, 220.00, 261.63],
        [196.00, 261.63, 329.63],
        [196.00, 246.94, 293.66],
    ]
    static let attack = 0.3  // seconds, raised cosine
    static let release = 0.3

    /// Chords starting at the given samples (each lasts until the next starts, the last until
    /// the end); the outgoing chord fades out while the next fades in.
    static func render(count: Int, chordStarts: [Int], sampleRate: Int) -> [Float] {
        var out = [Float](repeating: 0, count: count)
        let table = wavetable
        let attackSamples = Int(attack * Double(sampleRate)), releaseSamples = Int(release * Double(sampleRate))
        for (index, start) in chordStarts.enumerated() where start < count {
            let next = index + 1 < chordStarts.count ? chordStarts[index + 1] : count
            let end = min(count, next + releaseSamples)
            // Two oscillators per note, 0.3 % apart, for a slow chorus-like beating.
            let increments = progression[index % progression.count].flatMap { [$0, $0 * 1.003] }
                .map { $0 / Double(sampleRate) }
            var phases = [Double](repeating: 0, count: increments.count)
            for n in start..<end {
                var value: Float = 0
                for k in phases.indices {
                    value += lookup(table, phases[k])
                    phases[k] += increments[k]
                    if phases[k] >= 1 { phases[k] -= 1 }
                }
                out[n] += value * envelope(n - start, n - next, attackSamples, releaseSamples)
            }
        }
        return out
    }

    /// Rising over `attack` from the chord start; falling over `release` once the next chord has begun.
    private static func envelope(_ sinceStart: Int, _ sinceNext: Int, _ attack: Int, _ release: Int) -> Float {
        var e = 1.0
        if sinceStart < attack { e *= 0.5 - 0.5 * cos(Double.pi * Double(sinceStart) / Double(attack)) }
        if sinceNext >= 0 { e *= 0.5 + 0.5 * cos(Double.pi * min(1, Double(sinceNext) / Double(release))) }
        return Float(e)
    }

    private static let tableSize = 4096
    /// One period of a soft tone: five harmonics falling at 1/h^1.5.
    private static let wavetable: [Float] = (0...tableSize).map { i in
        let x = 2 * Double.pi * Double(i) / Double(tableSize)
        return Float((1...5).reduce(0.0) { $0 + sin(Double($1) * x) / pow(Double($1), 1.5) })
    }

    private static func lookup(_ table: [Float], _ phase: Double) -> Float {
        let position = phase * Double(tableSize)
        let i = Int(position), frac = Float(position - Double(i))
        return table[i] + (table[i + 1] - table[i]) * frac
    }
}
