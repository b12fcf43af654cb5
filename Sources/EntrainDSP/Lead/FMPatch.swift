/// One lead note's 4-operator FM sound (a Lead4opFM preset, or two of them morphed): two sine
/// carriers, four sine modulators routed by `algorithm`, the envelopes, the two carriers'
/// filters and pans, and the noise transient. Plain value: it travels inside a note event.
public struct FMPatch: Sendable, BitwiseCopyable {
    /// How the modulators reach the carriers.
    public enum Algorithm: Int, Sendable, BitwiseCopyable, CaseIterable {
        /// m1…m4 → both carriers.
        case parallel = 0
        /// m4 → m3 → m2 → m1 → both carriers.
        case stack
        /// m1, m3 → c1; m2, m4 → c2.
        case split
        /// m1, m2 → c1; m3, m4 → c2.
        case cross
        /// c2 muted; m1, m3 → c1; m2, m4 → m3.
        case dx17

        public init?(name: String) {
            guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = found
        }

        public var name: String { ["parallel", "stack", "split", "cross", "dx17"][rawValue] }
    }

    public enum NoiseType: Int, Sendable, BitwiseCopyable {
        case white = 0, pink, brown, filtered

        public init(name: String) {
            switch name {
            case "pink": self = .pink
            case "brown": self = .brown
            case "filtered": self = .filtered
            default: self = .white
            }
        }
    }

    public var algorithm = Algorithm.parallel
    /// Carrier 2's detune (cents) and level.
    public var beatDetune = 0.0, carrier2Mix = 0.0
    /// Per modulator: frequency ratio to the note, index (depth = note frequency × index, in Hz),
    /// and the time (s, after the attack) its depth takes to fall to its sustain fraction.
    public var ratio = InlineArray<4, Double>(repeating: 1)
    public var index = InlineArray<4, Double>(repeating: 0)
    public var modDecay = InlineArray<4, Double>(repeating: 0.5)
    /// Modulator 1's sustain fraction (the others are fixed: 0.05, 0.02, 0.1).
    public var mod1Sustain = 0.1
    /// Amplitude envelope (s; sustain a level). `hold` is the time at sustain before release.
    public var attack = 0.01, decay = 0.8, sustain = 0.3, hold = 0.5, release = 2.0
    /// The carriers' low-pass (Hz, Q in dB as Web Audio's).
    public var filterFrequency = 4000.0, filterQ = 0.7
    /// The note-on noise burst: click + noise level, length (ms), decay (1/s), filter (Hz), colour.
    public var click = 0.0, noise = 0.0, transientMilliseconds = 20.0, transientDecay = 50.0
    public var transientFilter = 4000.0
    public var transientType = NoiseType.white
    public var gain = 0.5
    /// Carrier 1's and carrier 2's output level and pan (−1…1).
    public var xLevel = 1.0, xPan = 0.0, yLevel = 1.0, yPan = 0.0

    public init() {}

    /// Every number interpolated from `a` (t = 0) to `b` (t = 1); the algorithm and the noise
    /// colour switch at 0.5 (the caller may keep A's algorithm).
    public static func morph(_ a: FMPatch, _ b: FMPatch, _ t: Double) -> FMPatch {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        var p = a
        p.algorithm = t < 0.5 ? a.algorithm : b.algorithm
        p.transientType = t < 0.5 ? a.transientType : b.transientType
        p.beatDetune = mix(a.beatDetune, b.beatDetune)
        p.carrier2Mix = mix(a.carrier2Mix, b.carrier2Mix)
        for k in 0..<4 {
            p.ratio[k] = mix(a.ratio[k], b.ratio[k])
            p.index[k] = mix(a.index[k], b.index[k])
            p.modDecay[k] = mix(a.modDecay[k], b.modDecay[k])
        }
        p.mod1Sustain = mix(a.mod1Sustain, b.mod1Sustain)
        p.attack = mix(a.attack, b.attack); p.decay = mix(a.decay, b.decay)
        p.sustain = mix(a.sustain, b.sustain); p.hold = mix(a.hold, b.hold); p.release = mix(a.release, b.release)
        p.filterFrequency = mix(a.filterFrequency, b.filterFrequency); p.filterQ = mix(a.filterQ, b.filterQ)
        p.click = mix(a.click, b.click); p.noise = mix(a.noise, b.noise)
        p.transientMilliseconds = mix(a.transientMilliseconds, b.transientMilliseconds)
        p.transientDecay = mix(a.transientDecay, b.transientDecay)
        p.transientFilter = mix(a.transientFilter, b.transientFilter)
        p.gain = mix(a.gain, b.gain)
        p.xLevel = mix(a.xLevel, b.xLevel); p.xPan = mix(a.xPan, b.xPan)
        p.yLevel = mix(a.yLevel, b.yLevel); p.yPan = mix(a.yPan, b.yPan)
        return p
    }
}

/// A lead note: its patch, frequency (Hz, glide detune included) and velocity (lead level
/// included), and the shared delay's settings it brings (drawn per note in sample-and-hold mode).
public struct FMNote: Sendable, BitwiseCopyable {
    public var patch = FMPatch()
    public var frequency = 440.0
    public var velocity = 0.5
    /// Seeds the transient's noise (deterministic per note).
    public var noiseSeed: UInt64 = 0
    public var delayMilliseconds = 375.0, delayFeedback = 0.4, delayMix = 0.35

    public init() {}
}
