import Synchronization

/// Band-limited single-cycle tables for every waveform, one per half-octave "level".
///
/// Level i holds only the harmonics that stay below `cutoff` for fundamentals up to
/// `levelFrequency(i)`, so reading level i at any frequency at or below that never aliases.
/// The oscillator blends two neighbouring levels by frequency so harmonics fade out smoothly
/// instead of switching. Built once per sample rate (allocates); read-only afterwards, so engines share it.
// @unchecked: its pointers are written once in init and only read afterwards, from any thread.
public struct WavetableBank: @unchecked Sendable {
    @inlinable public static var tableSize: Int { 4096 }
    @inlinable static var mask: Int { tableSize - 1 }
    /// Lowest level's top frequency; levels rise by half an octave.
    @inlinable public static var baseFrequency: Double { 16 }
    @inlinable static var levelsPerOctave: Double { 2 }

    public let sampleRate: Double
    public let levelCount: Int
    /// [waveform][level][tableSize + 1] samples; the extra guard sample makes interpolation branch-free.
    @usableFromInline let storage: UnsafeMutablePointer<Float>

    /// The bank for `sampleRate`, built on first use and shared from then on (it is read-only).
    /// Never call this on the process thread: the first call per rate allocates.
    public static func shared(sampleRate: Double) -> WavetableBank {
        cache.withLock { banks in
            if let bank = banks[sampleRate] { return bank }
            let bank = WavetableBank(sampleRate: sampleRate)
            banks[sampleRate] = bank
            return bank
        }
    }

    private static let cache = Mutex<[Double: WavetableBank]>([:])

    /// Builds a bank; prefer `shared(sampleRate:)`. Freed only by `deallocate()`.
    public init(sampleRate: Double) {
        precondition(sampleRate >= 8000 && sampleRate <= 768_000, "unsupported sample rate \(sampleRate)")
        self.sampleRate = sampleRate
        let cutoff = 0.45 * sampleRate
        var levels = 1
        while Self.levelFrequency(levels - 1) < sampleRate / 2 { levels += 1 }
        levelCount = levels
        let n = Self.tableSize, stride = n + 1
        storage = .allocate(capacity: Waveform.allCases.count * levels * stride)

        // One exact sine table; harmonic k of sample i is sine[(k·i) mod N], so no libm in the loop.
        let sine = UnsafeMutablePointer<Double>.allocate(capacity: n)
        let sum = UnsafeMutablePointer<Double>.allocate(capacity: n)
        defer { sine.deallocate(); sum.deallocate() }
        for i in 0..<n { sine[i] = FastMath.sinTurns(Double(i) / Double(n)) }

        for waveform in Waveform.allCases {
            sum.initialize(repeating: 0, count: n)
            var added = 0
            var peak = 0.0
            // From the top level (fewest harmonics) down, each level adds the harmonics it can afford.
            for level in Swift.stride(from: levels - 1, through: 0, by: -1) {
                let allowed = min(n / 2 - 1, max(1, Int(cutoff / Self.levelFrequency(level))))
                if allowed > added {
                    for k in (added + 1)...allowed {
                        let a = waveform.harmonicAmplitude(k)
                        if a == 0 { continue }
                        var index = 0
                        for i in 0..<n {
                            sum[i] += a * sine[index]
                            index = (index + k) & Self.mask
                        }
                    }
                    added = allowed
                }
                let table = storage + (waveform.rawValue * levels + level) * stride
                for i in 0..<n {
                    table[i] = Float(sum[i])
                    peak = max(peak, abs(sum[i]))
                }
            }
            // One normalisation per waveform keeps the level constant from level to level.
            let scale = Float(1 / peak)
            for level in 0..<levels {
                let table = storage + (waveform.rawValue * levels + level) * stride
                for i in 0..<n { table[i] *= scale }
                table[n] = table[0]
            }
        }
    }

    /// The highest fundamental that level `i` can play without aliasing.
    @inlinable
    public static func levelFrequency(_ level: Int) -> Double {
        baseFrequency * FastMath.exp2(Double(level) / levelsPerOctave)
    }

    /// Level and blend weight for a fundamental: blend `level` (weight 1-t) with `level+1` (weight t).
    @inlinable
    public func levelBlend(for frequency: Double) -> (level: Int, t: Float) {
        let position = FastMath.log2(max(frequency, Self.baseFrequency) / Self.baseFrequency) * Self.levelsPerOctave
        // Frequency in (f_{i-1}, f_i]: level i is the first that covers it; fade towards i+1 across the band.
        let upper = -FastMath.floor(-position)
        let level = min(Int(upper), levelCount - 2)
        let t = Float(max(0, min(1, position - (upper - 1))))
        return (level, t)
    }

    /// Linear-interpolated table read at `phase` in [0, 1).
    @inlinable @inline(__always)
    public func read(_ waveform: Waveform, level: Int, phase: Double) -> Float {
        let table = storage + (waveform.rawValue * levelCount + level) * (Self.tableSize + 1)
        let (index, fraction) = FastMath.split(phase * Double(Self.tableSize))
        let frac = Float(fraction)
        let a = table[index & Self.mask]
        let b = table[(index & Self.mask) + 1]
        return a + (b - a) * frac
    }

    public func deallocate() { storage.deallocate() }
}
