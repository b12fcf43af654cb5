/// The Kessho engine's routing of the pad bus, granulator, reverb and ocean into its master
/// (gains named after the keys that set them); the lead and drums arrive already mixed (their
/// direct signal and their reverb sends, zeroed here when the reverb is off). The pad bus feeds the
/// granulator (always, whatever synthLevel), the dry path and a reverb send; the granulator's
/// wet signal goes through a high-pass then a low-pass to the master and a reverb send; the
/// reverb returns at reverbLevel; the ocean synth goes through its own filter to the master
/// (level squared, as the web's intensity and gain both apply it); masterVolume scales the sum.
/// Disabled engines have their gains at 0 but keep running, as on the web.
public struct AmbientMix {
    public struct Levels: Sendable, BitwiseCopyable {
        public var masterVolume = 0.7
        public var synthLevel = 0.6
        public var synthReverbSend = 0.7
        public var granularEnabled = true
        public var granularLevel = 0.4
        public var granularReverbSend = 0.8
        public var wetHPF = 500.0
        public var wetLPF = 8000.0
        public var reverbEnabled = true
        public var reverbLevel = 1.0
        public var oceanWaveSynthEnabled = false
        public var oceanWaveSynthLevel = 0.0
        public var oceanFilterType = WebAudioBiquad.Kind.lowpass
        public var oceanFilterCutoff = 8000.0
        public var oceanFilterResonance = 0.1
        public init() {}
    }

    public let sampleRate: Double
    public var granulator: Granulator
    public var reverb: FDNReverb
    public var ocean: OceanWaves
    var hpfL = WebAudioBiquad(), hpfR = WebAudioBiquad(), lpfL = WebAudioBiquad(), lpfR = WebAudioBiquad()
    var oceanFilterL = WebAudioBiquad(), oceanFilterR = WebAudioBiquad()
    // Gains in force (0 where an engine is disabled).
    var master: Float = 0.7, synthDirect: Float = 0.6, synthSend: Float = 0.7
    var granularDirect: Float = 0.4, granularSend: Float = 0.8, reverbReturn: Float = 1, oceanGain: Float = 0
    /// 1 while the reverb is enabled: the lead's and drums' sends pass.
    var otherSends: Float = 1
    /// For up to `scratchFrames` frames: the granulator's filtered wet signal, then the reverb's
    /// input and (in place) its output (left, then right, each).
    let scratch: UnsafeMutablePointer<Float>
    static var scratchFrames: Int { 256 }

    public init(sampleRate: Double, seed: UInt64, quality: FDNReverb.Quality, levels: Levels = Levels(),
                reverbSettings: FDNReverb.Settings = FDNReverb.Settings(),
                granularSettings: Granulator.Settings = Granulator.Settings()) {
        self.sampleRate = sampleRate
        granulator = Granulator(sampleRate: sampleRate, seed: seed, settings: granularSettings)
        reverb = FDNReverb(sampleRate: sampleRate, quality: quality, settings: reverbSettings)
        ocean = OceanWaves(sampleRate: sampleRate, seed: seed &+ 0x6F63_6561_6E00)
        scratch = .allocate(capacity: 4 * Self.scratchFrames)
        apply(levels)
    }

    public func deallocate() {
        granulator.deallocate()
        reverb.deallocate()
        scratch.deallocate()
    }

    /// New levels and filter settings (any time).
    public mutating func apply(_ l: Levels) {
        master = Float(l.masterVolume)
        synthDirect = Float(l.synthLevel)
        synthSend = l.reverbEnabled ? Float(l.synthReverbSend) : 0
        granularDirect = l.granularEnabled ? Float(l.granularLevel) : 0
        granularSend = l.granularEnabled && l.reverbEnabled ? Float(l.granularReverbSend) : 0
        reverbReturn = l.reverbEnabled ? Float(l.reverbLevel) : 0
        otherSends = l.reverbEnabled ? 1 : 0
        oceanGain = l.oceanWaveSynthEnabled ? Float(l.oceanWaveSynthLevel) : 0
        var intensity = ocean.settings
        intensity.intensity = l.oceanWaveSynthEnabled ? l.oceanWaveSynthLevel : 0
        ocean.settings = intensity
        // Web Audio's default Q (1 dB) on the granular wet filters.
        hpfL.set(.highpass, frequency: l.wetHPF, q: 1, gainDecibels: 0, sampleRate: sampleRate)
        hpfR.set(.highpass, frequency: l.wetHPF, q: 1, gainDecibels: 0, sampleRate: sampleRate)
        lpfL.set(.lowpass, frequency: l.wetLPF, q: 1, gainDecibels: 0, sampleRate: sampleRate)
        lpfR.set(.lowpass, frequency: l.wetLPF, q: 1, gainDecibels: 0, sampleRate: sampleRate)
        let q = 0.5 + 10 * l.oceanFilterResonance
        oceanFilterL.set(l.oceanFilterType, frequency: l.oceanFilterCutoff, q: q, gainDecibels: 0, sampleRate: sampleRate)
        oceanFilterR.set(l.oceanFilterType, frequency: l.oceanFilterCutoff, q: q, gainDecibels: 0, sampleRate: sampleRate)
    }

    /// One frame of the pad bus in (and the lead's and drums' direct signal and reverb sends),
    /// the ambient master out (before the output limiter).
    @inline(__always)
    public mutating func process(_ padL: Float, _ padR: Float, direct: SIMD2<Float> = .zero,
                                 send: SIMD2<Float> = .zero) -> (Float, Float) {
        let (gL, gR) = granulator.process(padL, padR)
        let wetL = lpfL.process(hpfL.process(gL)), wetR = lpfR.process(hpfR.process(gR))
        let sendL = padL * synthSend + wetL * granularSend + send.x * otherSends
        let sendR = padR * synthSend + wetR * granularSend + send.y * otherSends
        let (rL, rR) = reverb.process(sendL, sendR)
        let waves = ocean.next()
        let oL = oceanFilterL.process(waves.left) * oceanGain, oR = oceanFilterR.process(waves.right) * oceanGain
        let left = padL * synthDirect + wetL * granularDirect + rL * reverbReturn + oL + direct.x
        let right = padR * synthDirect + wetR * granularDirect + rR * reverbReturn + oR + direct.y
        return (left * master, right * master)
    }
}
