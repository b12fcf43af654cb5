/// One drum hit's sound: the voice and every parameter its synthesis reads, already varied
/// (variation, strike distance) and morphed by the conductor. Times in ms, frequencies in Hz,
/// amounts 0…1 as the Kessho keys. Plain value: it travels inside a hit event.
public struct DrumSound: Sendable, BitwiseCopyable {
    public enum Voice: Int, Sendable, BitwiseCopyable, CaseIterable {
        case sub = 0, kick, click, beepHi, beepLo, noise, membrane

        /// The key infix (`drum<Name>Level`).
        public var name: String { ["Sub", "Kick", "Click", "BeepHi", "BeepLo", "Noise", "Membrane"][rawValue] }
        /// Hits of one voice that may ring at once; a new one fades the oldest out (5 ms).
        public var polyphony: Int {
            switch self {
            case .click: 4
            case .beepHi, .beepLo: 3
            default: 2
            }
        }
    }

    public var voice = Voice.kick
    /// Lane velocity (level included) and the hit's send into the drum delay.
    public var velocity = 1.0, delaySend = 0.0
    /// Seeds the hit's noise.
    public var seed: UInt64 = 0
    // Shared.
    public var level = 0.7, decay = 200.0, attack = 0.0, frequency = 55.0, tone = 0.0
    public var pitchEnv = 0.0, pitchDecay = 50.0, body = 0.5
    // Sub and kick.
    public var shape = 0.0, drive = 0.0, subOctave = 0.0, click = 0.3, punch = 0.5, tail = 0.0
    // Click: mode 0 impulse, 1 noise, 2 tonal, 3 granular.
    public var mode = 0, filter = 4000.0, resonance = 0.4, pitch = 2000.0
    /// Granular clicks: grains (1…8) spread over `grainSpread` ms.
    public var grainCount = 1, grainSpread = 0.0
    /// Above 0.01 (and not granular) a continuous blend of impulse, tonal and noise replaces the mode.
    public var exciterColor = 0.0
    // BeepHi.
    public var inharmonic = 0.0, partials = 1, shimmer = 0.0, shimmerRate = 4.0, brightness = 0.5
    public var modRatio = 2.0, modEnvDecay = 0.0, modEnvEnd = 0.2
    /// The modulator's self-feedback (−1…1), start phase (turns), and noise into its output.
    public var feedback = 0.0, modPhase = 0.0, noiseInMod = 0.0, noiseDecay = 0.0
    // BeepLo.
    public var pluck = 0.0, pluckDamp = 0.5, modal = 0.0, modalQ = 10.0, modalInharmonic = 0.0
    public var modalSpread = 0.0, modalCut = 0.0, oscGain = 1.0, modalGain = 1.0
    // Noise: filter type 0 lowpass, 1 bandpass, 2 highpass.
    public var filterType = 2, filterQ = 1.0, filterEnv = 0.0, filterEnvDecay = 100.0, colorLFO = 0.0
    /// Vowel formants (700, 1200, 2500 Hz) blended in.
    public var formant = 0.0
    /// Breath: an 8–12 Hz amplitude flutter. Density below 1: the noise in Hann grains of
    /// `particleSize` ms, their spacing and pitch jittered by `particleRandom`.
    public var breath = 0.0, density = 1.0, particleSize = 5.0, particleRandom = 0.0, particleRandomRate = 0.5
    public var ratchetCount = 0, ratchetTime = 30.0
    // Membrane: exciter 0 impulse, 1 noise, 2 stick, 3 brush, 4 mallet; material 0 skin, 1 metal,
    // 2 wood, 3 glass, 4 plastic.
    public var exciter = 0, excBright = 0.5, excDuration = 3.0, tension = 0.5, damping = 0.3, material = 0
    public var overtones = 4, ring = 0.2, nonlinearity = 0.0, wireMix = 0.0, wireTone = 0.5, wireDecay = 0.5
    /// Strike position (0 centre … 1 rim) and the wires' rattle density.
    public var excPos = 0.3, wireDensity = 0.5

    public init() {}
}
