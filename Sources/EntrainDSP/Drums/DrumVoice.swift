/// One sounding drum hit: the seven voices' synthesis, sample by sample. Every voice has an
/// optional linear attack and an exponential decay to 0.001 over its decay time, then frees
/// itself. Filters that sweep are retuned every 16 frames.
public struct DrumVoice {
    public private(set) var active = false
    public private(set) var age = 0
    var voice = DrumSound.Voice.kick
    var s = DrumSound()
    var rate = 48_000.0
    var length = 0, attackFrames = 0
    var amp = 1.0, ampFactor = 1.0
    var gain: Float = 0
    /// A stolen hit fades out over 5 ms.
    var fade: Float = 1, fadeStep: Float = 0
    var phase = InlineArray<8, Double>(repeating: 0)
    var frequency = 0.0, frequencyFactor = 1.0, sweepFrames = 0
    var filters = InlineArray<8, WebAudioBiquad>(repeating: WebAudioBiquad())
    var modeFrequency = InlineArray<8, Double>(repeating: 0)
    var modeGain = InlineArray<8, Float>(repeating: 0)
    var noise = RandomSource(seed: 1)
    var burst = 0.0, burstFactor = 1.0
    var side = 1.0, sideFactor = 1.0
    /// A second component's own decay (sub's octave-up, kick's body).
    var second = 1.0, secondFactor = 1.0
    var shaperDrive = 0.0, shaperNorm = 1.0

    public init() {}

    /// The membrane's mode ratios (functions, not tables: a static table's lazy start may lock).
    @inline(__always)
    static func membraneRatio(_ i: Int) -> Double {
        switch i {
        case 0: 1
        case 1: 1.59
        case 2: 2.14
        case 3: 2.30
        case 4: 2.65
        case 5: 2.92
        case 6: 3.16
        default: 3.50
        }
    }

    /// Material: inharmonicity, damping factor, brightness (skin, metal, wood, glass, plastic).
    @inline(__always)
    static func material(_ i: Int) -> SIMD3<Double> {
        switch i {
        case 1: SIMD3(0.3, 0.5, 1.5)
        case 2: SIMD3(0.15, 1.3, 0.7)
        case 3: SIMD3(0.4, 0.3, 2.0)
        case 4: SIMD3(0.1, 0.8, 1.2)
        default: SIMD3(0, 1, 1)
        }
    }

    @inline(__always)
    static func decayFactor(milliseconds: Double, rate: Double) -> Double {
        // To 0.001 (−60 dB) over the time: log2(0.001) = −9.966.
        FastMath.exp2(-9.965_784_284_662_087 / max(milliseconds / 1000 * rate, 1))
    }

    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func start(_ sound: DrumSound, sampleRate: Double) {
        s = sound
        voice = sound.voice
        rate = sampleRate
        active = true
        age = 0
        fade = 1; fadeStep = 0
        for i in 0..<8 { phase[i] = 0; filters[i] = WebAudioBiquad() }
        noise = RandomSource(seed: sound.seed)
        gain = Float(sound.level * sound.velocity)
        var decayMs = max(sound.decay, 1)
        if voice == .noise && sound.ratchetCount > 0 { decayMs += Double(sound.ratchetCount) * sound.ratchetTime }
        let tailMs = voice == .sub ? decayMs * 1.2 : voice == .kick ? decayMs * 1.5 : decayMs
        attackFrames = Int(max(sound.attack, 0) / 1000 * rate)
        length = attackFrames + Int(tailMs / 1000 * rate) + 1
        amp = attackFrames > 0 ? 0 : 1
        ampFactor = Self.decayFactor(milliseconds: decayMs, rate: rate)
        side = 1
        second = 1
        secondFactor = ampFactor
        shaperDrive = 0
        switch voice {
        case .sub:
            sweep(from: sound.frequency * FastMath.exp2(sound.pitchEnv / 12), to: sound.frequency, ms: sound.pitchDecay)
            sideFactor = Self.decayFactor(milliseconds: decayMs * 1.2, rate: rate)
            secondFactor = Self.decayFactor(milliseconds: decayMs * 0.7, rate: rate)
            if sound.drive > 0.05 { setShaper(10 * sound.drive) }
        case .kick:
            let start = min(sound.frequency * FastMath.exp2(sound.pitchEnv * (0.5 + 1.5 * sound.punch) / 12), rate * 0.45)
            sweep(from: start, to: sound.frequency, ms: min(sound.pitchDecay, 500))
            filters[0] = WebAudioBiquad(.lowpass, frequency: 4 * sound.frequency, q: 1, sampleRate: rate)
            filters[1] = WebAudioBiquad(.lowpass, frequency: 2 * sound.frequency, q: 2, sampleRate: rate)
            sideFactor = Self.decayFactor(milliseconds: decayMs * 1.5, rate: rate)
            secondFactor = Self.decayFactor(milliseconds: decayMs * 0.6, rate: rate)
            if sound.tone > 0.01 { setShaper(5 * sound.tone) }
        case .click:
            switch sound.mode {
            case 1:
                filters[0] = WebAudioBiquad(.bandpass, frequency: sound.filter, q: 1 + 10 * sound.resonance, sampleRate: rate)
                ampFactor = Self.decayFactor(milliseconds: decayMs * (0.5 + 0.5 * sound.tone), rate: rate)
            case 2:
                sweep(from: sound.pitch * FastMath.exp2(sound.pitchEnv / 12), to: sound.pitch, ms: 0.3 * decayMs)
                filters[0] = WebAudioBiquad(.lowpass, frequency: sound.filter, q: 1, sampleRate: rate)
            case 3:
                // Grains at seeded times within the spread (the first at once), level 1/√n, one
                // high-pass at the filter (Q 2).
                let n = min(max(sound.grainCount, 1), 8)
                for k in 0..<8 {
                    modeFrequency[k] = k == 0 ? 0 : Double(noise.nextUInt32()) / 4_294_967_296 * sound.grainSpread / 1000 * rate
                    modeGain[k] = k < n ? Float(1 / FastMath.exp2(0.5 * FastMath.log2(Double(n)))) : 0
                }
                filters[0] = WebAudioBiquad(.highpass, frequency: sound.filter, q: 2, sampleRate: rate)
                ampFactor = Self.decayFactor(milliseconds: decayMs * (0.1 + 0.2 * sound.tone), rate: rate)
                length += Int(sound.grainSpread / 1000 * rate)
            default:
                filters[0] = WebAudioBiquad(.highpass, frequency: sound.filter, q: 0.5 + 15 * sound.resonance, sampleRate: rate)
                ampFactor = Self.decayFactor(milliseconds: decayMs * (0.1 + 0.2 * sound.tone), rate: rate)
            }
        case .beepHi:
            let n = min(max(sound.partials, 1), 6), inh = sound.inharmonic
            for k in 1...n {
                let kk = Double(k)
                let stretched = FastMath.exp2(FastMath.log2(kk) * (1 + 0.5 * inh))
                modeFrequency[k - 1] = sound.frequency * (kk + (stretched - kk) * inh)
                modeGain[k - 1] = Float(1 / (Double(n) * FastMath.exp2(0.5 * FastMath.log2(kk))))  // no libm sqrt here
            }
            filters[0] = WebAudioBiquad(.lowpass, frequency: min(sound.frequency * (1 + 4 * sound.brightness), rate * 0.45),
                                        q: 1, sampleRate: rate)
            // The FM depth falls from 0.3·tone·f toward modEnvEnd of it; faster with modEnvDecay.
            side = 1
            sideFactor = sound.modEnvDecay > 0
                ? FastMath.exp2(FastMath.log2(max(sound.modEnvEnd, 0.001)) / max((1.05 - sound.modEnvDecay) * decayMs / 1000 * rate, 1))
                : 1
        case .beepLo:
            sweep(from: sound.frequency * FastMath.exp2(sound.pitchEnv / 12), to: sound.frequency, ms: sound.pitchDecay)
            filters[0] = WebAudioBiquad(.peaking, frequency: 1.5 * sound.frequency, q: 2 + 5 * sound.body,
                                        gainDecibels: 6 * sound.body, sampleRate: rate)
            filters[1] = WebAudioBiquad(.lowpass, frequency: min(4 * sound.frequency, rate * 0.45), q: 0, sampleRate: rate)
            let harmonic: InlineArray<6, Double> = [1, 2, 3, 4, 5, 6], bell: InlineArray<6, Double> = [1, 2, 3, 4.2, 5.4, 6.8]
            for i in 0..<6 {
                var r = harmonic[i] + (bell[i] - harmonic[i]) * sound.modalInharmonic
                r = FastMath.exp2(FastMath.log2(r) * (1 + 0.3 * sound.modalSpread))
                let f = min(sound.frequency * r, rate * 0.45)
                filters[2 + i] = WebAudioBiquad(.bandpass, frequency: f, q: max(sound.modalQ * (1 - 0.1 * Double(i)), 0.5), sampleRate: rate)
                let tilt = 1 + sound.modalCut * (2 * Double(i) / 5 - 1)
                modeGain[i] = Float(min(max(tilt, 0), 2))
            }
            burst = 1
            burstFactor = Self.decayFactor(milliseconds: 5, rate: rate)
        case .noise:
            let q = 5 + 10 * sound.formant
            filters[1] = WebAudioBiquad(.bandpass, frequency: 700, q: q, sampleRate: rate)
            filters[2] = WebAudioBiquad(.bandpass, frequency: 1200, q: q, sampleRate: rate)
            filters[3] = WebAudioBiquad(.bandpass, frequency: 2500, q: q, sampleRate: rate)
            setNoiseFilter(sound.frequency * (1 + sound.filterEnv))
            sweep(from: max(sound.frequency * (1 + sound.filterEnv), 20), to: sound.frequency, ms: sound.filterEnvDecay)
        case .membrane:
            let m = Self.material(sound.material)
            let inh = m.x + 0.2 * sound.nonlinearity
            let n = min(max(sound.overtones, 1), 8)
            for i in 0..<8 {
                guard i < n else { modeGain[i] = 0; continue }
                let spread = 0.8 + 0.4 * Double(noise.nextUInt32()) / 4_294_967_296
                modeFrequency[i] = sound.frequency * (Self.membraneRatio(i) + inh * 0.08 * Double(i) * spread) * (0.5 + sound.tension)
                modeGain[i] = Float(1 / (1 + 0.5 * Double(i)))
            }
            sweep(from: FastMath.exp2(sound.pitchEnv / 12), to: 1, ms: sound.pitchDecay)
            burst = 1
            burstFactor = Self.decayFactor(milliseconds: max(sound.excDuration, 0.5), rate: rate)
            filters[7] = WebAudioBiquad(.lowpass, frequency: min(1000 + 8000 * sound.excBright * m.z, rate * 0.45), q: 0, sampleRate: rate)
            sideFactor = Self.decayFactor(milliseconds: decayMs * (0.2 + 0.8 * sound.wireDecay), rate: rate)
            retuneMembrane()
        }
    }

    /// An exponential pitch (or filter) sweep from `from` to `to` over `ms`.
    mutating func sweep(from: Double, to: Double, ms: Double) {
        frequency = from
        sweepFrames = max(1, Int(ms / 1000 * rate))
        frequencyFactor = from > 0 && to > 0 ? FastMath.exp2(FastMath.log2(to / from) / Double(sweepFrames)) : 1
    }

    mutating func setShaper(_ k: Double) {
        shaperDrive = k
        shaperNorm = 1 / TanhShaper.tanh(k)
    }

    mutating func setNoiseFilter(_ f: Double) {
        let cutoff = min(max(f, 20), rate * 0.45)
        switch s.filterType {
        case 0: filters[0].set(.lowpass, frequency: cutoff, q: s.filterQ, gainDecibels: 0, sampleRate: rate)
        case 1: filters[0].set(.bandpass, frequency: cutoff, q: s.filterQ, gainDecibels: 0, sampleRate: rate)
        default: filters[0].set(.highpass, frequency: cutoff, q: s.filterQ, gainDecibels: 0, sampleRate: rate)
        }
    }

    mutating func retuneMembrane() {
        let m = Self.material(s.material)
        for i in 0..<7 where modeGain[i] > 0 {
            let q = (5 + 40 * s.ring + 30 * (1 - s.damping)) * m.y / (1 + 0.3 * Double(i))
            filters[i].set(.bandpass, frequency: min(modeFrequency[i] * frequency, rate * 0.45), q: max(q, 0.5),
                           gainDecibels: 0, sampleRate: rate)
        }
    }

    /// Fade out over 5 ms (a newer hit of this voice needs the room).
    public mutating func steal() { fadeStep = Float(1 / (0.005 * rate)) }

    public var isFading: Bool { fadeStep > 0 }

    @inline(__always)
    mutating func white() -> Float { noise.nextBipolar() }

    @inline(__always)
    mutating func osc(_ i: Int, _ f: Double) -> Double {
        let p = phase[i]
        phase[i] = p + f / rate - FastMath.floor(p + f / rate)
        return p
    }

    @inline(__always)
    func shaped(_ x: Double) -> Double { shaperDrive > 0 ? TanhShaper.tanh(shaperDrive * x) * shaperNorm : x }

    /// The next mono sample.
    @inline(__always)
    public mutating func next() -> Float {
        let n = age
        age += 1
        if n < attackFrames {
            amp = Double(n + 1) / Double(attackFrames)
        } else if n > attackFrames {
            amp *= ampFactor
        }
        let sweeping = n < sweepFrames
        var y = 0.0
        switch voice {
        case .sub:
            let p = osc(0, frequency)
            var main = FastMath.sinTurns(p)
            if s.shape >= 0.66 { main = 2 * p - 1 } else if s.shape >= 0.33 { main = 1 - 4 * abs(p - 0.5) }
            var x = main * amp
            if s.tone > 0.05 { x += 0.3 * s.tone * FastMath.sinTurns(osc(1, 2 * frequency)) * second }
            if s.subOctave > 0 { x += 0.5 * s.subOctave * FastMath.sinTurns(osc(2, 0.5 * frequency)) * side }
            side *= sideFactor
            second *= secondFactor
            y = shaped(x)
        case .kick:
            var x = FastMath.sinTurns(osc(0, frequency)) * amp
            if n < Int(0.005 * rate) {
                let p = osc(1, 3000 + 2000 * s.punch)
                x += s.click * (1 - 4 * abs(p - 0.5)) * (1 - Double(n) / (0.005 * rate))
            }
            if s.body > 0 {
                let p = osc(2, 1.5 * s.frequency)
                x += s.body * Double(filters[0].process(Float(1 - 4 * abs(p - 0.5)))) * second
            }
            second *= secondFactor
            y = shaped(x)
            if s.tail > 0 {
                let rise = min(Double(n) / max(0.1 * s.decay / 1000 * rate, 1), 1)
                y += s.tail * Double(filters[1].process(white())) * rise * side
                side *= sideFactor
            }
        case .click:
            switch s.mode {
            case 2: y = Double(filters[0].process(Float(FastMath.sinTurns(osc(0, frequency))))) * amp
            case 1: y = Double(filters[0].process(white())) * amp
            case 3:
                var env = 0.0
                for k in 0..<8 where modeGain[k] > 0 && Double(n) >= modeFrequency[k] {
                    let since = Double(n) - modeFrequency[k]
                    env += Double(modeGain[k]) * FastMath.exp2(FastMath.log2(ampFactor) * since)
                }
                y = Double(filters[0].process(white() * Float(env)))
            default: y = Double(filters[0].process(n == 0 ? 1 : white() * 0.5)) * amp
            }
        case .beepHi:
            var x = 0.0
            let n1 = min(max(s.partials, 1), 6)
            let fm = s.tone > 0.1 ? FastMath.sinTurns(osc(6, s.frequency * s.modRatio)) * 0.3 * s.tone * s.frequency * side : 0
            side *= sideFactor
            for k in 0..<n1 { x += FastMath.sinTurns(osc(k, modeFrequency[k] + (k == 0 ? fm : 0))) * Double(modeGain[k]) }
            let shimmer = 1 + 0.3 * s.shimmer * FastMath.sinTurns(Double(n) * s.shimmerRate / rate)
            y = Double(filters[0].process(Float(x))) * shimmer * amp
        case .beepLo:
            var o = FastMath.sinTurns(osc(0, frequency))
            if s.tone > 0.5 { o = Double(filters[1].process(Float(TanhShaper.tanh(6 * o)))) }
            o = Double(filters[0].process(Float(o)))
            var modal = 0.0
            let e = Double(white()) * burst * 40
            burst *= burstFactor
            if s.modal > 0.001 || s.pluck > 0.3 {
                for i in 0..<6 { modal += Double(filters[2 + i].process(Float(e)) * modeGain[i]) }
                modal /= 6
            }
            if s.pluck > 0.3 { o += 0.5 * Double(filters[2].process(Float(e * 0.25))) }
            let a = s.modal * 0.25  // turns: π/2·modal
            y = (FastMath.cosTurns(a) * o * s.oscGain + FastMath.sinTurns(a) * modal * s.modalGain) * amp
        case .noise:
            if sweeping || s.colorLFO > 0, n % 16 == 0 {
                let lfo = s.colorLFO > 0 ? 1 + 0.3 * FastMath.sinTurns(Double(n) * s.colorLFO / rate) : 1
                setNoiseFilter(frequency * lfo)
            }
            var env = amp
            if s.ratchetCount > 0 {
                let spacing = max(Int(s.ratchetTime / 1000 * rate), 1), r = n / spacing
                if r < s.ratchetCount {
                    let since = Double(n - r * spacing) / rate * 1000
                    let burstMs = min(s.ratchetTime, 30)
                    env = FastMath.exp2(-9.97 * since / burstMs) * FastMath.exp2(FastMath.log2(0.65) * Double(s.ratchetCount - r))
                } else {
                    env = FastMath.exp2(-9.97 * Double(n - s.ratchetCount * spacing) / (max(s.decay, 1) / 1000 * rate))
                }
            }
            let w = white()
            var x = Double(filters[0].process(w))
            if s.formant > 0 {
                let vowel = Double(filters[1].process(w) + filters[2].process(w) + filters[3].process(w))
                x += (vowel * 3 - x) * s.formant
            }
            y = x * env
        case .membrane:
            if sweeping && n % 16 == 0 { retuneMembrane() }
            var e: Double
            switch s.exciter {
            case 0: e = n == 0 ? 8 : Double(white()) * burst * 0.5
            case 3: e = Double(white()) * burst * 0.6
            case 4: e = Double(filters[7].process(white())) * burst * 2
            default: e = Double(white()) * burst
            }
            if s.exciter != 4 { e = Double(filters[7].process(Float(e))) }
            burst *= burstFactor
            var x = 0.0
            for i in 0..<7 where modeGain[i] > 0 { x += Double(filters[i].process(Float(e * 6))) * Double(modeGain[i]) }
            x += s.body * FastMath.sinTurns(osc(0, s.frequency * frequency)) * 0.5
            y = x * amp
            if s.wireMix > 0 {
                y += s.wireMix * Double(white()) * 0.3 * side
                side *= sideFactor
            }
        }
        if sweeping { frequency *= frequencyFactor }
        var out = Float(y) * gain
        if fadeStep > 0 {
            fade -= fadeStep
            if fade <= 0 { active = false; return 0 }
            out *= fade
        }
        if n >= length { active = false }
        return out
    }
}
