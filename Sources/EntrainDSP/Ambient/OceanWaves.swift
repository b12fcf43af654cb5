/// The synthesized ocean of Kessho (its "ocean" worklet): two overlapping noise wave
/// generators, a low rumble that follows the waves' depth, and foam bursts near each crest,
/// summed, smoothed, DC-blocked and soft-clipped: out = tanh(0.6·intensity·x). Stereo.
///
/// Not included: the looped beach field recording (Ghetary-Waves-Rocks), which is not
/// available here, and the ocean bus's shared biquad and output gain, which belong to the mixer
/// (WebAudioBiquad; remember the web's level is applied twice, so loudness ∝ level²).
/// Differences from the original: draws come from a seeded xoshiro128+ (RandomSource), not
/// mulberry32, so the same seed does not give the web's waves; settings are read every frame
/// rather than once per 128-frame block. One-pole coefficients are per-sample constants, as
/// in the original, so the spectrum scales with the sample rate.
public struct OceanWaves {
    /// The worklet's parameters. Engine mapping: intensity = oceanWaveSynthLevel; min = max =
    /// oceanDuration / oceanInterval / oceanFoam / oceanDepth unless a key is sampled in a range.
    public struct Settings: Sendable, Equatable, BitwiseCopyable {
        public var intensity: Double
        public var durationMin: Double, durationMax: Double  // s
        public var intervalMin: Double, intervalMax: Double  // s, wave start to next wave start
        public var wave2OffsetMin: Double, wave2OffsetMax: Double  // s added to generator 2's interval
        public var foamMin: Double, foamMax: Double
        public var depthMin: Double, depthMax: Double

        public init(intensity: Double = 0.5, duration: Double = 7, interval: Double = 8.5,
                    foam: Double = 0.35, depth: Double = 0.5) {
            self.intensity = intensity
            durationMin = duration; durationMax = duration
            intervalMin = interval; intervalMax = interval
            wave2OffsetMin = 2; wave2OffsetMax = 6  // never set by the web engine
            foamMin = foam; foamMax = foam
            depthMin = depth; depthMax = depth
        }
    }

    public let sampleRate: Double
    public var settings: Settings
    @usableFromInline var random: OceanRandom
    @usableFromInline var first: OceanWaveGenerator
    @usableFromInline var second: OceanWaveGenerator
    @usableFromInline var rumbleL: Float = 0, rumbleR: Float = 0
    @usableFromInline var foamL: Float = 0, foamR: Float = 0
    @usableFromInline var masterL: Float = 0, masterR: Float = 0
    @usableFromInline var dcL: Float = 0, dcR: Float = 0

    public init(sampleRate: Double, seed: UInt64, settings: Settings = Settings()) {
        self.sampleRate = sampleRate
        self.settings = settings
        random = OceanRandom(seed: seed)
        first = OceanWaveGenerator(second: false, sampleRate: sampleRate, random: &random)
        second = OceanWaveGenerator(second: true, sampleRate: sampleRate, random: &random)
    }

    /// Swell envelope of generator 0 or 1 at the last frame (amplitude included).
    public func waveEnvelope(generator: Int) -> Double {
        generator == 0 ? first.lastEnvelope : second.lastEnvelope
    }

    /// Waves started so far by generator 0 or 1.
    public func wavesStarted(generator: Int) -> Int {
        generator == 0 ? first.wavesStarted : second.wavesStarted
    }

    /// One stereo frame. At intensity ≤ 0.0001 it is silent and nothing advances (as the original).
    @inlinable @inline(__always)
    public mutating func next() -> (left: Float, right: Float) {
        let s = settings
        guard s.intensity > 0.0001 else { return (0, 0) }
        var bodyL: Float = 0, bodyR: Float = 0, sprayL: Float = 0, sprayR: Float = 0
        var depthAmount = first.step(s, sampleRate: sampleRate, random: &random,
                                     bodyL: &bodyL, bodyR: &bodyR, foamL: &sprayL, foamR: &sprayR)
        depthAmount += second.step(s, sampleRate: sampleRate, random: &random,
                                   bodyL: &bodyL, bodyR: &bodyR, foamL: &sprayL, foamR: &sprayR)
        rumbleL += (random.bipolar() - rumbleL) * 0.005
        rumbleR += (random.bipolar() - rumbleR) * 0.005
        let rumbleGain = Float((depthAmount + 0.2 * (s.depthMin + s.depthMax) / 2) * 0.4)
        foamL += (sprayL - foamL) * 0.3
        foamR += (sprayR - foamR) * 0.3
        let sumL = bodyL + rumbleL * rumbleGain + foamL
        let sumR = bodyR + rumbleR * rumbleGain + foamR
        masterL += (sumL - masterL) * 0.35
        masterR += (sumR - masterR) * 0.35
        dcL += (masterL - dcL) * 0.0005
        dcR += (masterR - dcR) * 0.0005
        let drive = 0.6 * s.intensity
        let out = FastTanh.tanh(SIMD2(Float(drive * Double(masterL - dcL)), Float(drive * Double(masterR - dcR))))
        return (out[0], out[1])
    }
}
