extension Granulator {
    /// How a grain's pitch offset is drawn.
    public enum PitchMode: Int, Sendable, BitwiseCopyable {
        /// Continuous offset, uniform in ±pitchSpread semitones.
        case random = 0
        /// An entry of the interval table; pitchSpread sets how many entries are eligible.
        case harmonic
    }

    /// The granular parameters in their natural units. `apply` clamps each to the ranges of
    /// the Kessho parameter table, so any value is safe to pass.
    public struct Settings: Sendable, BitwiseCopyable {
        /// Chance that a spawn tick starts a grain, 0...1.
        public var grainProbability = 0.8
        /// Grain length range in ms (5...800); equal unless the host samples and holds.
        public var grainSizeMinMilliseconds = 50.0
        public var grainSizeMaxMilliseconds = 50.0
        /// Spawn ticks per second, 5...80.
        public var density = 25.0
        /// Look-back window in ms, 0...600: grains start 1× to 2× this far in the past.
        public var sprayMilliseconds = 200.0
        /// Random start offset, ± ms, 0...30.
        public var jitterMilliseconds = 10.0
        public var pitchMode = PitchMode.harmonic
        /// Semitones, 0...12.
        public var pitchSpread = 3.0
        /// Equal-power random pan width, 0...1.
        public var stereoSpread = 0.6
        /// tanh(wet·feedback) is added back into the buffer; the engine clamps it to 0...0.35.
        public var feedback = 0.1
        /// Not in the web worklet (0 there): a fixed shift added to every grain, in semitones
        /// (−24...24). Lets a host transpose the whole cloud and tests measure pitch exactly.
        public var transposeSemitones = 0.0

        public init() {}

        /// Both size bounds at once, as when sample-and-hold is off.
        public var grainSizeMilliseconds: Double {
            get { grainSizeMinMilliseconds }
            set { grainSizeMinMilliseconds = newValue; grainSizeMaxMilliseconds = newValue }
        }
    }
}
