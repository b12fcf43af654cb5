/// One sounding lead note: the 4-operator FM voice of an `FMNote`. Modulation is frequency
/// modulation in Hz, as Web Audio connects a modulator's output to an oscillator's frequency:
/// modulator k's output is sin(phase)·depth_k with depth_k = f·index_k (modulator 1 also × the
/// velocity), falling exponentially to its sustain fraction by attack + decay_k. Carrier 1 rises
/// linearly to 1 at the attack, carrier 2 to 0.8 at 1.2·attack; both fall to the sustain level
/// at attack + decay, hold, and fall exponentially to 0.001 over the release.
public struct FMVoice {
    public private(set) var active = false
    /// Frames since the note started (the age used to steal the oldest voice).
    public private(set) var age = 0
    var f = 0.0, f2 = 0.0
    var inverseRate = 1.0 / 48_000
    var algorithm = FMPatch.Algorithm.parallel
    // The four modulators side by side in SIMD lanes (m1…m4): each lane does the arithmetic the
    // scalar loop did, in the same order. A modulator of index 0 keeps depth 0, so its lane
    // adds 0 wherever it goes, whatever its phase.
    /// f × ratio_k: each modulator's own frequency (Hz), the product the frame used to take.
    var modulatorFrequency = SIMD4<Double>(repeating: 0)
    var phase = SIMD4<Double>(repeating: 0)
    var depth = SIMD4<Double>(repeating: 0)
    /// Each modulator's depth factor per frame while its ramp lasts, 1 once it has ended (× 1 is
    /// exact: the depth holds, as the frame-count check per lane did, without 64-bit integer
    /// lane comparisons, which baseline x86-64 lacks).
    var depthFactor = SIMD4<Double>(repeating: 1)
    var depthFrames = SIMD4<Int64>(repeating: 0)
    /// The next frame at which a ramp ends (`endRamps`), .max when none is left.
    var nextRampEnd = Int.max
    var carrierPhase = SIMD2<Double>(repeating: 0)  // c1, c2
    // Amplitude envelope breakpoints (frames) and levels.
    var attackFrames = 0, decayEnd = 0, holdEnd = 0, releaseEnd = 0
    /// Carrier 2's peak: 1.2 × attack.
    var peak2 = 0
    var sustain = 0.0, releaseFactor = 1.0
    var env1 = 0.0, env2 = 0.0
    var env2Peak = 0.0
    /// The carriers' low-pass (one set of coefficients): carrier 1 in lane 0, carrier 2 in lane 1.
    var filters = StereoBiquad()
    var pan1 = SIMD2<Float>(1, 1), pan2 = SIMD2<Float>(1, 1)
    var carrier2Gain: Float = 0
    /// The note output gain (velocity × patch gain), which the transient also passes through.
    var noteGain: Float = 0
    // Transient.
    var transientGain = 0.0, transientGainFactor = 1.0, transientShape = 1.0, transientShapeFactor = 1.0
    var transientFrames = 0
    var transientType = FMPatch.NoiseType.white
    var transientFilter = WebAudioBiquad()
    var random = RandomSource(seed: 1)
    var pink = KelletFilter()
    var brown: Float = 0

    public init() {}

    /// Start `note` now at `sampleRate`.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func start(_ note: FMNote, sampleRate: Double) {
        let p = note.patch, v = note.velocity, rate = sampleRate
        inverseRate = 1 / rate
        active = true
        age = 0
        f = note.frequency
        f2 = note.frequency * FastMath.exp2(p.beatDetune / 1200)
        algorithm = p.algorithm
        for k in 0..<4 { modulatorFrequency[k] = f * p.ratio[k] }
        phase = .zero
        carrierPhase = .zero
        let sustains: InlineArray<4, Double> = [p.mod1Sustain == 0 ? 0.1 : p.mod1Sustain, 0.05, 0.02, 0.1]
        for k in 0..<4 {
            let start = f * p.index[k] * (k == 0 ? v : 1)
            depth[k] = start
            let end = max(0.001, start * sustains[k])
            let frames = max(1, Int((p.attack + p.modDecay[k]) * rate))
            depthFrames[k] = Int64(frames)
            // An exponential ramp from 0 holds 0 (Web Audio); otherwise a constant ratio per frame.
            depthFactor[k] = start > 0 ? Self.ratio(from: start, to: end, frames: frames) : 1
        }
        nextRampEnd = Int(depthFrames.min())
        attackFrames = max(1, Int(p.attack * rate))
        decayEnd = max(attackFrames + 1, Int((p.attack + p.decay) * rate))
        holdEnd = decayEnd + Int(p.hold * rate)
        releaseEnd = holdEnd + max(1, Int(p.release * rate))
        peak2 = Int(Double(attackFrames) * 1.2)
        sustain = p.sustain
        releaseFactor = sustain > 0 ? Self.ratio(from: 1, to: 0.001 / sustain, frames: releaseEnd - holdEnd) : 1
        env1 = 0; env2 = 0
        env2Peak = 0.8
        filters = StereoBiquad()
        filters.takeCoefficients(of: WebAudioBiquad(.lowpass, frequency: p.filterFrequency, q: p.filterQ, sampleRate: rate))
        let out = Float(v * p.gain)
        noteGain = out
        pan1 = Self.pan(p.xPan) * Float(p.xLevel) * out
        pan2 = Self.pan(p.yPan) * Float(p.yLevel) * out
        carrier2Gain = p.algorithm == .dx17 ? 0 : Float(p.carrier2Mix)
        // The transient: noise × e^(−t·decay), its gain falling to 0.001 by duration + 10 ms.
        let level = (p.click + p.noise) * v * 0.8
        if level > 0 {
            transientGain = level
            transientGainFactor = Self.ratio(from: level, to: 0.001, frames: max(1, Int((p.transientMilliseconds / 1000 + 0.01) * rate)))
            transientShape = 1
            transientShapeFactor = FastMath.exp2(-p.transientDecay * 1.442_695_040_888_963_4 / rate)
            transientFrames = Int(max(0.1, p.transientMilliseconds / 1000 + 0.05) * rate)
            transientType = p.transientType
            transientFilter = p.transientType == .filtered
                ? WebAudioBiquad(.bandpass, frequency: p.transientFilter, q: 2, sampleRate: rate)
                : WebAudioBiquad(.lowpass, frequency: p.transientFilter, q: 0.7, sampleRate: rate)
            random = RandomSource(seed: note.noiseSeed)
            pink = KelletFilter()
            brown = 0
        } else {
            transientFrames = 0
        }
    }

    /// The per-frame factor that takes `from` to `to` in `frames` frames.
    @inline(__always)
    static func ratio(from: Double, to: Double, frames: Int) -> Double {
        FastMath.exp2(FastMath.log2(to / from) / Double(frames))
    }

    /// Equal-power pan of a mono signal (Web Audio's StereoPannerNode).
    @inline(__always)
    static func pan(_ p: Double) -> SIMD2<Float> {
        let x = (min(max(p, -1), 1) + 1) / 2
        return SIMD2(Float(FastMath.cosTurns(x * 0.25)), Float(FastMath.sinTurns(x * 0.25)))
    }

    /// Cut the note short (its voice is needed): it stops now.
    public mutating func stop() { active = false }

    /// The next stereo frame (`sine`: the operators' waveform).
    @inline(__always)
    public mutating func next(_ sine: SineTable) -> SIMD2<Float> {
        let n = age
        age += 1
        // Modulator outputs (Hz of frequency deviation) from the current phases; the carriers'
        // sines too (from the phases the frame starts with, as before).
        let sines = SIMD4<Double>(sine(phase[0]), sine(phase[1]), sine(phase[2]), sine(phase[3]))
        let out = sines * depth
        let carrierSines = SIMD2<Double>(sine(carrierPhase[0]), sine(carrierPhase[1]))
        if n == nextRampEnd { endRamps(at: n) }
        depth *= depthFactor
        var into = SIMD4<Double>(repeating: 0)  // extra frequency of each modulator
        var c1 = 0.0, c2 = 0.0
        switch algorithm {
        case .parallel:
            c1 = out[0] + out[1] + out[2] + out[3]; c2 = c1
        case .stack:
            into[2] = out[3]; into[1] = out[2]; into[0] = out[1]
            c1 = out[0]; c2 = c1
        case .split:
            c1 = out[0] + out[2]; c2 = out[1] + out[3]
        case .cross:
            c1 = out[0] + out[1]; c2 = out[2] + out[3]
        case .dx17:
            into[2] = out[1] + out[3]
            c1 = out[0] + out[2]
        }
        phase = Self.wrap(phase + (modulatorFrequency + into) * inverseRate)
        let s1 = carrierSines[0]
        envelopeStep(n)
        // Carrier 2 runs in its lane even when muted (dx17, or no mix): its lane is not heard then,
        // and one pass over both lanes costs what carrier 1 alone did.
        let s2 = carrierSines[1]
        carrierPhase = Self.wrap(carrierPhase + SIMD2(f + c1, f2 + c2) * inverseRate)
        let y = filters.process(SIMD2(Float(s1 * env1), Float(s2 * env2) * carrier2Gain))
        var frame = pan1 * y[0]
        if carrier2Gain != 0 { frame += pan2 * y[1] }
        if n < transientFrames { frame += SIMD2(repeating: transient() * noteGain) }
        if n >= releaseEnd { active = false }
        return frame
    }

    /// Ramps that end at frame `n` hold their depth from now on.
    mutating func endRamps(at n: Int) {
        nextRampEnd = .max
        for k in 0..<4 {
            let end = Int(depthFrames[k])
            if end <= n { depthFactor[k] = 1 } else { nextRampEnd = min(nextRampEnd, end) }
        }
    }

    /// x − ⌊x⌋ lane by lane (|x| < 2^51), with no branch per lane: inside [0, 1) (most frames)
    /// the floor is 0 and x comes back as it was.
    @inline(__always)
    static func wrap<V: SIMD>(_ x: V) -> V where V.Scalar == Double {
        var whole = (x + FastMath.roundingBias) - FastMath.roundingBias  // nearest integer
        whole.replace(with: whole - 1, where: whole .> x)
        return x - whole
    }

    @inline(__always)
    mutating func envelopeStep(_ n: Int) {
        if n < attackFrames {
            env1 = Double(n) / Double(attackFrames)
        } else if n < decayEnd {
            env1 = 1 + (sustain - 1) * Double(n - attackFrames) / Double(decayEnd - attackFrames)
        } else if n < holdEnd {
            env1 = sustain
        } else if n == holdEnd {
            env1 = sustain
        } else {
            env1 *= releaseFactor
        }
        // Carrier 2: up to 0.8 at 1.2·attack, then to 0.8·sustain at attack + decay.
        if n < peak2 {
            env2 = env2Peak * Double(n) / Double(max(peak2, 1))
        } else if n < decayEnd {
            env2 = env2Peak + (env2Peak * sustain - env2Peak) * Double(n - peak2) / Double(max(decayEnd - peak2, 1))
        } else if n <= holdEnd {
            env2 = env2Peak * sustain
        } else {
            env2 *= releaseFactor
        }
    }

    /// One sample of the note-on noise burst (mono), shaped and filtered.
    @inline(__always)
    mutating func transient() -> Float {
        let w = random.nextBipolar()
        var x: Float
        switch transientType {
        case .pink: x = pink.step(SIMD2(w, 0)).x * 0.11
        case .brown:
            brown = (brown + 0.02 * w) / 1.02
            x = brown * 3.5
        default: x = w
        }
        x *= Float(transientShape * transientGain)
        transientShape *= transientShapeFactor
        transientGain *= transientGainFactor
        return transientFilter.process(x)
    }
}
