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
    var filters = InlineArray<10, WebAudioBiquad>(repeating: WebAudioBiquad())
    var modeFrequency = InlineArray<8, Double>(repeating: 0)
    var modeGain = InlineArray<8, Float>(repeating: 0)
    var noise = RandomSource(seed: 1)
    var burst = 0.0, burstFactor = 1.0
    var side = 1.0, sideFactor = 1.0
    /// A second component's own decay (sub's octave-up, kick's body).
    var second = 1.0, secondFactor = 1.0
    var shaperDrive = 0.0, shaperNorm = 1.0
    /// The click's continuous blend of its three modes (exciter colour).
    var clickBlend = false
    /// The high beep's modulator output one sample ago (its self-feedback).
    var modulatorLast = 0.0
    /// Noise: the breath flutter's rate (Hz), and the particle grains (frames; the grain's pitch).
    var flutterRate = 10.0
    var grainFrames = 1, grainAt = 0, nextGrain = 0, nextPitchDraw = 0, grainPitch = 1.0
    /// The low beep's plucked string (Karplus–Strong): a delay line one period long whose loop
    /// low-pass (`stringSmoothing`, from the damping) takes the upper harmonics first.
    @inlinable static var stringCapacity: Int { 1024 }
    var string = InlineArray<1024, Float>(repeating: 0)
    var stringWrite = 0, stringLength = 2.0
    var stringGain: Float = 1, stringSmoothing: Float = 0.5, stringLast: Float = 0

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
        for i in 0..<8 { phase[i] = 0 }
        for i in 0..<10 { filters[i] = WebAudioBiquad() }
        clickBlend = false
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
        case .click where sound.exciterColor > 0.01 && sound.mode != 3:
            // A continuous blend replaces the mode: impulse fades out by colour 0.5, noise fades
            // in from there, the tonal sweep peaks at 0.5. Each keeps its own filter and decay.
            let c = min(sound.exciterColor, 1)
            clickBlend = true
            modeGain[0] = Float(max(0, 1 - 2 * c))
            modeGain[1] = Float(max(0, 2 * c - 1))
            modeGain[2] = Float(max(0, 1 - abs(c - 0.5) * 2))
            filters[0] = WebAudioBiquad(.highpass, frequency: sound.filter, q: 0.5 + 15 * sound.resonance, sampleRate: rate)
            filters[1] = WebAudioBiquad(.bandpass, frequency: sound.filter, q: 1 + 10 * sound.resonance, sampleRate: rate)
            filters[2] = WebAudioBiquad(.lowpass, frequency: sound.filter, q: 1, sampleRate: rate)
            sweep(from: sound.pitch * FastMath.exp2(sound.pitchEnv / 12), to: sound.pitch, ms: 0.3 * decayMs)
            burst = 1
            burstFactor = Self.decayFactor(milliseconds: decayMs * (0.1 + 0.2 * sound.tone), rate: rate)
            second = 1
            secondFactor = Self.decayFactor(milliseconds: decayMs * (0.5 + 0.5 * sound.tone), rate: rate)
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
            phase[6] = sound.modPhase - FastMath.floor(sound.modPhase)
            modulatorLast = 0
            burst = 1  // the noise into the modulator: 1 ms (decay 0) to 50 ms (decay 1)
            burstFactor = Self.decayFactor(milliseconds: 1 + 49 * sound.noiseDecay, rate: rate)
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
            if sound.pluck > 0.3 { pluckString(frequency: sound.frequency, damping: sound.pluckDamp, decayMs: decayMs) }
        case .noise:
            let q = 5 + 10 * sound.formant
            filters[1] = WebAudioBiquad(.bandpass, frequency: 700, q: q, sampleRate: rate)
            filters[2] = WebAudioBiquad(.bandpass, frequency: 1200, q: q, sampleRate: rate)
            filters[3] = WebAudioBiquad(.bandpass, frequency: 2500, q: q, sampleRate: rate)
            setNoiseFilter(sound.frequency * (1 + sound.filterEnv))
            sweep(from: max(sound.frequency * (1 + sound.filterEnv), 20), to: sound.frequency, ms: sound.filterEnvDecay)
            flutterRate = 8 + 4 * Double(noise.nextUInt32()) / 4_294_967_296
            grainFrames = max(Int(max(sound.particleSize, 1) / 1000 * rate), 16)
            grainAt = 0; nextGrain = 0; nextPitchDraw = 0; grainPitch = 1
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
            strike(at: sound.excPos, modes: n)
            sweep(from: FastMath.exp2(sound.pitchEnv / 12), to: 1, ms: sound.pitchDecay)
            burst = 1
            burstFactor = Self.decayFactor(milliseconds: max(sound.excDuration, 0.5), rate: rate)
            filters[7] = WebAudioBiquad(.lowpass, frequency: min(1000 + 8000 * sound.excBright * m.z, rate * 0.45), q: 0, sampleRate: rate)
            sideFactor = Self.decayFactor(milliseconds: decayMs * (0.2 + 0.8 * sound.wireDecay), rate: rate)
            // Snare wires: noise high-passed at 1.5–5.5 kHz into a band-pass at 3–9 kHz, by wire tone.
            filters[8] = WebAudioBiquad(.highpass, frequency: min(1500 + 4000 * sound.wireTone, rate * 0.45), q: 0.7, sampleRate: rate)
            filters[9] = WebAudioBiquad(.bandpass, frequency: min(3000 + 6000 * sound.wireTone, rate * 0.45), q: 1, sampleRate: rate)
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

    /// Fill the string with one period of noise. Its loop low-pass averages a sample with the
    /// last output by `stringSmoothing` (0.1 bright … 0.9 muted); the delay is shortened by the
    /// low-pass's own delay so the string stays in tune, and the loop gain makes it fall 60 dB
    /// over the decay.
    mutating func pluckString(frequency: Double, damping: Double, decayMs: Double) {
        let c = 0.1 + 0.8 * min(max(damping, 0), 1)
        stringSmoothing = Float(c)
        stringLength = min(max(rate / max(frequency, 20) - c / (1 - c), 2), Double(Self.stringCapacity - 2))
        stringGain = Float(FastMath.exp2(-9.965_784_284_662_087 / max(decayMs / 1000 * frequency, 1)))
        stringLast = 0
        stringWrite = 0
        let mask = Self.stringCapacity - 1
        for k in 1...(Int(stringLength) + 2) { string[(0 - k) & mask] = white() }
    }

    /// One sample of the plucked string.
    @inline(__always)
    mutating func stringNext() -> Float {
        let mask = Self.stringCapacity - 1
        let position = Double(stringWrite) - stringLength
        let whole = FastMath.floor(position)
        let i = Int(whole), t = Float(position - whole)
        let a = string[i & mask], b = string[(i + 1) & mask]
        let y = a + (b - a) * t
        stringLast = (1 - stringSmoothing) * y + stringSmoothing * stringLast
        string[stringWrite] = stringLast * stringGain
        stringWrite = (stringWrite + 1) & mask
        return y
    }

    /// Where the stick lands weights the modes as on a struck string: position x along it gives
    /// mode k the weight |sin(π·k·x)|, from x = ½ at the centre (odd modes only, a round tone) to
    /// x = 0.05 at the rim (the fundamental weak, the upper modes strong). The weights are scaled
    /// to keep the modes' total power, so the position changes the colour, not the level.
    mutating func strike(at position: Double, modes n: Int) {
        let x = 0.05 + 0.45 * (1 - min(max(position, 0), 1))
        var before = 0.0, after = 0.0
        for i in 0..<n {
            let g = Double(modeGain[i])
            let w = abs(FastMath.sinTurns(0.5 * Double(i + 1) * x))
            before += g * g
            modeGain[i] = Float(g * w)
            after += g * g * w * w
        }
        guard after > 1e-12 else { return }
        let scale = Float(FastMath.exp2(0.5 * FastMath.log2(before / after)))
        for i in 0..<n { modeGain[i] *= scale }
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
        case .click where clickBlend:
            let ramp = n < attackFrames ? Double(n + 1) / Double(attackFrames) : 1
            let impulse = Double(filters[0].process(n == 0 ? 1 : white() * 0.5)) * burst * ramp
            let noisy = Double(filters[1].process(white())) * second * ramp
            let tonal = Double(filters[2].process(Float(FastMath.sinTurns(osc(0, frequency))))) * amp
            if n >= attackFrames { burst *= burstFactor; second *= secondFactor }
            y = Double(modeGain[0]) * impulse + Double(modeGain[1]) * noisy + Double(modeGain[2]) * tonal
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
            var fm = 0.0
            if s.tone > 0.1 {
                // The modulator's last output bends its own phase (up to half a turn at ±1).
                let m = FastMath.sinTurns(osc(6, s.frequency * s.modRatio) + 0.5 * s.feedback * modulatorLast)
                modulatorLast = m
                fm = m * 0.3 * s.tone * s.frequency * side
                if s.noiseInMod > 0 {
                    fm += Double(white()) * s.noiseInMod * burst * 0.3 * s.frequency
                    burst *= burstFactor
                }
            }
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
            if s.modal > 0.001 {
                for i in 0..<6 { modal += Double(filters[2 + i].process(Float(e)) * modeGain[i]) }
                modal /= 6
            }
            if s.pluck > 0.3 { o += 0.5 * s.pluck * Double(stringNext()) }
            let a = s.modal * 0.25  // turns: π/2·modal
            y = (FastMath.cosTurns(a) * o * s.oscGain + FastMath.sinTurns(a) * modal * s.modalGain) * amp
        case .noise:
            let particles = s.density < 0.99
            var retune = (sweeping || s.colorLFO > 0) && n % 16 == 0
            if particles && n >= nextGrain {
                // A new grain: sparser with lower density, its spacing jittered by the randomness.
                grainAt = n
                let spacing = Double(grainFrames) / max(s.density, 0.02)
                nextGrain = n + max(Int(spacing * (1 + s.particleRandom * (Double(white()) * 0.5))), 1)
            }
            if particles && s.particleRandom > 0 && n >= nextPitchDraw {
                // The filter's pitch jitter: drawn per grain (rate 0) up to every 16 frames (rate 1).
                grainPitch = 1 + 0.5 * s.particleRandom * Double(white())
                nextPitchDraw = s.particleRandomRate < 0.01 ? nextGrain
                    : n + max(Int(Double(grainFrames) * (1 - s.particleRandomRate)), 16)
                retune = true
            }
            if retune {
                let lfo = s.colorLFO > 0 ? 1 + 0.3 * FastMath.sinTurns(Double(n) * s.colorLFO / rate) : 1
                setNoiseFilter(frequency * lfo * grainPitch)
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
            if s.breath > 0 { x *= 1 - 0.5 * s.breath * (1 - FastMath.sinTurns(Double(n) * flutterRate / rate)) }
            if particles {
                let k = n - grainAt
                x *= k < grainFrames ? 0.5 - 0.5 * FastMath.cosTurns(Double(k) / Double(grainFrames)) : 0
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
                var wires = Double(filters[9].process(filters[8].process(white()))) * 0.6
                if s.wireDensity > 0.3 {
                    // The rattle: the wires slap at 100–500 Hz, by density (a square gate).
                    wires *= osc(7, 100 + 400 * s.wireDensity) < 0.5 ? 1 : 0.35
                }
                y += s.wireMix * wires * side
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
