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

    /// Where a live take (every channel) stops being equal, sample for sample, to the render it
    /// should match, over `count` frames from `start`; nil when it is equal throughout. It is
    /// compared stretch by stretch (`stretches`: a live take's `untouchedStretches`, the places an
    /// xrun touched left out): the first stretch is found in the render by its first samples, each
    /// later one within `slack` frames of where the one before left off (a cycle the client missed
    /// holds the render back by a period, one the take lost moves it on), the nearest place first.
    public static func firstDifference(live take: [[Float]], stretches: [Range<Int>], from start: Int, count: Int,
                                       render: [[Float]], slack: Int) -> String? {
        let end = min(start + count, take[0].count)
        let pieces = stretches.map { max($0.lowerBound, start)..<min($0.upperBound, end) }.filter { $0.count >= 8 }
        guard let first = pieces.first else { return "no stretch of the take clear of xruns" }
        func matches(_ piece: Range<Int>, at offset: Int, frames: Int) -> Bool {
            let from = piece.lowerBound + offset
            guard from >= 0, from + frames <= render[0].count else { return false }
            return take.indices.allSatisfy { c in (0..<frames).allSatisfy { render[c][from + $0] == take[c][piece.lowerBound + $0] } }
        }
        guard var offset = (0..<max(0, render[0].count - first.count)).first(where: { matches(first, at: $0 - first.lowerBound, frames: 3) })
            .map({ $0 - first.lowerBound }) else { return "the live take does not occur in the render" }
        let nearestFirst = [0] + (1...max(1, slack)).flatMap { [-$0, $0] }
        for piece in pieces {
            guard let moved = nearestFirst.first(where: { matches(piece, at: offset + $0, frames: 8) }) else {
                return "the take \(piece.lowerBound - start) frames in does not continue the render within \(slack) frames"
            }
            offset += moved
            guard piece.upperBound + offset <= render[0].count else { return "the live take runs past the render" }
            for channel in take.indices {
                let live = Array(take[channel][piece]), rendered = Array(render[channel][(piece.lowerBound + offset)..<(piece.upperBound + offset)])
                if let i = firstDifference(live, rendered) { return "channel \(channel + 1) differs \(piece.lowerBound - start + i) frames in" }
            }
        }
        return nil
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

    /// `largestJump` inside each of `stretches` (a live take's `untouchedStretches`) from `start`.
    public static func largestJump(_ x: [Float], from start: Int, within stretches: [Range<Int>]) -> Float {
        stretches.reduce(0) { largest, stretch in
            let from = max(stretch.lowerBound, start), to = min(stretch.upperBound, x.count)
            return to - from > 1 ? max(largest, largestJump(x[from..<to])) : largest
        }
    }

    /// How far a take from `start` departs from one steady sine of `frequency`: each sample
    /// against the continuation of the two before it (exact for any amplitude and phase, so a
    /// click, a repeated or a dropped stretch shows however small). Where the take lacks frames
    /// (`losses`), the sine is continued over them, or not at all when the sound's source lost
    /// the same cycle; the nearer of the two counts.
    public static func largestSineDeparture(_ x: [Float], frequency: Double, sampleRate: Double, from start: Int,
                                            losses: [(position: Int, frames: Int)] = []) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        // x[m + k] from x[m] and x[m - 1], k steps on: U(k) x[m] - U(k - 1) x[m - 1], U(k) = sin((k + 1)w) / sin(w).
        func ahead(_ k: Int, _ last: Int) -> Double {
            (sin(Double(k + 1) * w) * Double(x[last]) - sin(Double(k) * w) * Double(x[last - 1])) / sin(w)
        }
        // Cycles lost back to back share a position; the client may have played any of them, so
        // every sum of a subset of them is a length the sine may have run on through the gap.
        var skips: [Int: Set<Int>] = [:]
        for loss in losses {
            let sums = skips[loss.position, default: [0]]
            skips[loss.position] = sums.union(sums.map { $0 + loss.frames })
        }
        var largest = 0.0, gap = (at: -10, skips: Set<Int>())
        for n in (start + 2)..<max(start + 2, x.count) {
            if let sums = skips[n] { gap = (n, sums) }
            if n - gap.at < 2 {
                // The first two samples after a loss, from the last two before it.
                guard gap.at - 2 >= start else { continue }
                let k = n - (gap.at - 1)
                let error = gap.skips.map { abs(Double(x[n]) - ahead(k + $0, gap.at - 1)) }.min() ?? 0
                largest = max(largest, error)
            } else {
                largest = max(largest, abs(Double(x[n]) - ahead(1, n - 1)))
            }
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
