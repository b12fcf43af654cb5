/// Session stages' glides of an output's number settings (brightness, speed, blend): from the
/// value shown when the stage's change lands to its target, over the stage's transition, on the
/// engine's frames. Effects and palettes switch; a person's change stops a glide under way.
struct PixelGlides {
    static let settings: [String: WritableKeyPath<PixelSettings, Double>] = ["brightness": \.brightness, "speed": \.speed, "blend": \.blend]

    private struct Slide {
        var from: Double
        var to: Double
        var start: Int64
        var seconds: Double
    }
    private var slides: [String: Slide] = [:]

    /// A slide of setting `key` from `from` to `to`, starting at `frame`.
    mutating func begin(_ key: String, from: Double, to: Double, at frame: Int64, seconds: Double) {
        slides[key] = Slide(from: from, to: to, start: frame, seconds: seconds)
    }

    mutating func stop(_ key: String) { slides[key] = nil }

    /// `targets` with the slides under way at `frame` laid over; finished slides are dropped.
    mutating func shown(_ targets: PixelSettings, at frame: Int64, sampleRate: Double) -> PixelSettings {
        var out = targets
        for (key, slide) in slides {
            guard let path = Self.settings[key] else { continue }
            let done = sampleRate > 0 ? Double(frame - slide.start) / (slide.seconds * sampleRate) : 1
            if done >= 1 { slides[key] = nil; continue }
            out[keyPath: path] = slide.from + (slide.to - slide.from) * max(0, done)
        }
        return out
    }
}
