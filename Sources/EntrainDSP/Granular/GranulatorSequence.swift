extension Granulator {
    /// Longest draw sequence kept: the engine sends 10 000 values per phrase.
    @inlinable public static var sequenceCapacity: Int { 10_000 }

    /// Draw from `values` (each in [0, 1)) from now on, starting at its first value and
    /// wrapping, as the worklet does with the engine's per-phrase sequence. Copies into
    /// storage made in `init`, so it is safe on the process thread; extra values are ignored.
    public mutating func loadSequence(_ values: UnsafeBufferPointer<Float>) {
        let n = min(values.count, Self.sequenceCapacity)
        // Clamped into [0, 1): a NaN or out-of-range value must not reach an index conversion.
        for i in 0..<n { let v = values[i]; sequence[i] = v.isNaN ? 0 : min(max(v, 0), 0.999_999_94) }
        sequenceCount = n
        sequenceIndex = 0
    }

    /// Load `count` draws straight from the engine stream (stored as Float32, as the web's
    /// worklet message does), without an intermediate buffer.
    public mutating func loadSequence(from stream: inout Mulberry32, count: Int) {
        let n = min(count, Self.sequenceCapacity)
        for i in 0..<n { sequence[i] = min(Float(stream.next()), 0.999_999_94) }
        sequenceCount = n
        sequenceIndex = 0
    }

    /// The next draw in [0, 1): from the loaded sequence if there is one, else the seeded generator.
    @inlinable @inline(__always)
    mutating func draw() -> Double {
        if sequenceCount == 0 { return Self.unit(&random) }
        let v = Double(sequence[sequenceIndex])
        sequenceIndex = sequenceIndex + 1 == sequenceCount ? 0 : sequenceIndex + 1
        return v
    }
}
