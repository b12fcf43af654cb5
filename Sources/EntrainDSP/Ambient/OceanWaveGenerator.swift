/// One of the Kessho ocean synth's two wave generators: idle until its interval has
/// elapsed since the last wave started, then one wave of noise shaped by a swell envelope,
/// with a foam burst near the crest. `second` selects the second generator's variant
/// (quieter, brighter body, mirrored pan, extra start offset).
@usableFromInline
struct OceanWaveGenerator {
    @usableFromInline let second: Bool
    @usableFromInline var elapsed: Double
    @usableFromInline var interval: Double  // frames
    @usableFromInline var duration: Double = 1  // frames
    @usableFromInline var active = false
    @usableFromInline var foam = 0.0, depth = 0.0, amplitude = 0.0, pan = 0.0
    @usableFromInline var bodyL: Float = 0, bodyR: Float = 0
    /// Count of waves started (for tests and displays).
    @usableFromInline var wavesStarted = 0
    @usableFromInline var lastEnvelope = 0.0

    /// Initial state: first interval (5 + 5u) s; amplitude and pan are drawn too, as the
    /// original's constructor does, though a wave start redraws them.
    @usableFromInline
    init(second: Bool, sampleRate: Double, random: inout OceanRandom) {
        self.second = second
        elapsed = second ? 4 * sampleRate : 0
        interval = (5 + 5 * random.unit()) * sampleRate
        amplitude = 0.6 + 0.4 * random.unit()
        pan = (random.unit() - 0.5) * 0.8
    }

    /// Swell over phase p: quadratic rise to 0.25, hold to 0.35, then a (1 − q)^1.5 fall.
    @inlinable @inline(__always)
    static func swell(_ p: Double) -> Double {
        if p < 0.25 { let r = p / 0.25; return r * r }
        if p < 0.35 { return 1 }
        let q = 1 - (p - 0.35) / 0.65
        return q > 0 ? FastMath.exp2(1.5 * FastMath.log2(q)) : 0  // no libm sqrt on the process thread
    }

    /// Foam: a half sine between phases 0.2 and 0.6.
    @inlinable @inline(__always)
    static func foamShape(_ p: Double) -> Double {
        p < 0.2 || p > 0.6 ? 0 : FastMath.sinTurns(0.5 * (p - 0.2) / 0.4)
    }

    /// Advance one frame; adds this generator's body and foam to the sums and returns
    /// envelope·depth for the rumble.
    @inlinable @inline(__always)
    mutating func step(_ s: OceanWaves.Settings, sampleRate: Double, random: inout OceanRandom,
                       bodyL sumL: inout Float, bodyR sumR: inout Float,
                       foamL: inout Float, foamR: inout Float) -> Double {
        elapsed += 1
        if !active && elapsed >= interval {
            duration = max(1, random.between(s.durationMin, s.durationMax) * sampleRate)
            _ = random.unit()  // the original draws an interval here for its display only
            foam = random.between(s.foamMin, s.foamMax)
            depth = random.between(s.depthMin, s.depthMax)
            amplitude = 0.6 + 0.4 * random.unit()
            pan = (random.unit() - 0.5) * 0.8
            elapsed = 0
            var next = random.between(s.intervalMin, s.intervalMax)
            if second { next += random.between(s.wave2OffsetMin, s.wave2OffsetMax) }
            interval = next * sampleRate
            active = true
            wavesStarted += 1
        }
        guard active else { lastEnvelope = 0; return 0 }
        let p = elapsed / duration
        if p >= 1 { active = false; lastEnvelope = 0; return 0 }
        let scale = second ? 0.7 : 1.0
        let env = Self.swell(p) * amplitude * scale
        let foamEnv = Self.foamShape(p) * amplitude * scale
        lastEnvelope = env
        // Pan gains; the second generator is mirrored.
        let toLeft = 0.5 + (second ? -0.5 : 0.5) * pan, toRight = 1 - toLeft
        let a: Float = second ? 0.04 : 0.03
        bodyL += (random.bipolar() - bodyL) * a
        bodyR += (random.bipolar() - bodyR) * a
        sumL += bodyL * Float(env * toLeft)
        sumR += bodyR * Float(env * toRight)
        let spray = random.bipolar() * Float(foamEnv * (second ? 0.4 : 0.5) * foam)
        foamL += spray * Float(toLeft)
        foamR += spray * Float(toRight)
        return env * depth
    }
}

/// Uniform draws for the ocean synth (xoshiro128+ via RandomSource, not the original's mulberry32).
@usableFromInline
struct OceanRandom {
    @usableFromInline var source: RandomSource
    @usableFromInline init(seed: UInt64) { source = RandomSource(seed: seed) }

    /// Uniform in [0, 1).
    @inlinable @inline(__always)
    mutating func unit() -> Double { Double(source.nextUInt32()) * (1.0 / 4_294_967_296.0) }

    @inlinable @inline(__always)
    mutating func between(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Uniform in [-1, 1).
    @inlinable @inline(__always)
    mutating func bipolar() -> Float { source.nextBipolar() }
}
