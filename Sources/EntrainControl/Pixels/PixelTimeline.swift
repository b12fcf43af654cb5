import EntrainCore

/// What the analysis and the led port said, period by period, kept by the pixel sender so each
/// output can show the moment that is being heard now (its own delay back from the newest).
struct PixelTimeline {
    private var frames: [PixelTapFrame] = []
    private var start = 0
    static let capacity = 8192
    /// Beats and onsets seen (engine frame, strength), newest last; a few seconds' worth.
    private(set) var beats: [(frame: Int64, strength: Float)] = []
    private(set) var onsets: [(frame: Int64, strength: Float)] = []

    mutating func append(_ frame: PixelTapFrame) {
        if frame.beatFrame >= 0 { beats.append((frame.beatFrame, frame.beatStrength)) }
        if frame.onsetFrame >= 0 { onsets.append((frame.onsetFrame, frame.onsetStrength)) }
        if beats.count > 64 { beats.removeFirst(beats.count - 32) }
        if onsets.count > 256 { onsets.removeFirst(onsets.count - 128) }
        if frames.count < Self.capacity { frames.append(frame); return }
        frames[start] = frame
        start = (start + 1) % Self.capacity
    }

    var newest: PixelTapFrame? { frames.isEmpty ? nil : frames[(start + frames.count - 1) % frames.count] }

    /// The periods that ended in (after, upTo], newest first, or the latest one before when none did.
    func periods(after: Int64, upTo frame: Int64) -> [PixelTapFrame] {
        var out: [PixelTapFrame] = []
        for back in 0..<frames.count {
            let f = frames[(start + frames.count - 1 - back) % frames.count]
            if f.frame > frame { continue }
            if f.frame <= after && !out.isEmpty { break }
            out.append(f)
            if f.frame <= after { break }
        }
        return out
    }

    /// The led value at `frame` (the newest period ending at or before it).
    func led(at frame: Int64) -> Float {
        periods(after: frame, upTo: frame).first?.led ?? 0
    }
}

/// One moment as an effect sees it.
struct PixelMoment {
    /// The engine frame being shown and the sample rate.
    var frame: Int64
    var sampleRate: Double
    /// Band levels (0…1, 16), held at their peaks since the output's last frame.
    var bands: [Float]
    var led: Float
    var beats: [(frame: Int64, strength: Float)]
    var onsets: [(frame: Int64, strength: Float)]

    /// The loudness as one number: the bands' mean.
    var level: Float { bands.isEmpty ? 0 : bands.reduce(0, +) / Float(bands.count) }
}
