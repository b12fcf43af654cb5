/// Everything the ambient engine's sound depends on, in natural units: what the Kessho state's
/// rendered keys become (the mapping lives with the conductor, which owns the state). A plain
/// value, so it travels to the process thread inside an `AmbientEvent`.
public struct AmbientSettings: Sendable, BitwiseCopyable {
    public var timbre = PadVoice.Timbre()
    public var envelope = PadEnvelope()
    public var filterKind = WebAudioBiquad.Kind.lowpass
    /// The filter walk's limits (Hz), base Q and speed divisor (see `FilterWalk`).
    public var cutoffLow = 400.0, cutoffHigh = 3000.0, filterQ = 1.0, filterModSpeed = 2.0
    /// Bit i enables pad voice i.
    public var voiceMask = 63
    /// Chord frequencies are multiplied by 2^octave.
    public var octave = 0.0
    public var levels = AmbientMix.Levels()
    public var granular = Granulator.Settings()
    public var reverb = FDNReverb.Settings()
    public var ocean = OceanWaves.Settings()
    public var lead = LeadSynth.Settings()
    public var drums = DrumMachine.Settings()

    public init() {}
}
