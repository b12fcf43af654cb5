/// One of the six Kessho pad voices: sine f, triangle f·2^(−D/1200), saw f·2^(+D/1200)
/// and saw f, mixed by `oscBrightness`, plus looped stereo "air" noise, through the main
/// biquad → low shelf 250 Hz → peaking 3 kHz → tanh shaper (2× oversampled, which delays the
/// audio 15 frames; the envelope is not delayed to match) → ×0.15 → envelope.
/// `Timbre.oscBrightness` takes the already rounded 0…3 value.
/// Mono except for the noise. All buffers are allocated in `init`; `deallocate()` frees them.
/// Control calls (`setTimbre`, `setFilter`, note scheduling) belong at control rate; `next()`
/// is the per-frame kernel.
public struct PadVoice {
    /// Timbre parameters (Kessho keys oscBrightness, detune, warmth, presence, hardness, airNoise).
    public struct Timbre: Sendable, Equatable, BitwiseCopyable {
        public var oscBrightness: Int, detuneCents: Double
        public var warmth: Double, presence: Double, hardness: Double, airNoise: Double
        public init(oscBrightness: Int = 2, detuneCents: Double = 0, warmth: Double = 0.4,
                    presence: Double = 0.3, hardness: Double = 0.3, airNoise: Double = 0.15) {
            self.oscBrightness = oscBrightness; self.detuneCents = detuneCents; self.warmth = warmth
            self.presence = presence; self.hardness = hardness; self.airNoise = airNoise
        }
    }

    /// Mix gains (sine, triangle −D, saw +D, saw) per rounded oscBrightness 0…3.
    public static func oscillatorGains(brightness: Int) -> SIMD4<Float> {
        switch min(max(brightness, 0), 3) {
        case 0: return SIMD4<Float>(1, 0, 0, 0)
        case 1: return SIMD4<Float>(0.2, 0.8, 0, 0)
        case 2: return SIMD4<Float>(0, 0.4, 0.3, 0.3)
        default: return SIMD4<Float>(0, 0, 0.5, 0.5)
        }
    }

    public let sampleRate: Double
    @usableFromInline let bank: WavetableBank
    @usableFromInline let inverseRate: Double
    @usableFromInline var sine = Oscillator(), triangle = Oscillator(), sawUp = Oscillator(), saw = Oscillator()
    @usableFromInline var frequency: Double = 0
    @usableFromInline var detuneRatio: Double = 1
    // A pitch step waiting for its frame (the crossfade changes pitch mid-envelope).
    @usableFromInline var pendingFrequency: Double = 0
    @usableFromInline var pendingFrame: Int64 = .max
    // Gains glide with τ 50 ms, as every Kessho gain change does (setTargetAtTime 0.05).
    @usableFromInline var gains = SIMD4<Float>(repeating: 0), gainTargets = SIMD4<Float>(repeating: 0)
    @usableFromInline var air: Float = 0, airTarget: Float = 0
    @usableFromInline let glideFactor: Float
    @usableFromInline var noise: AirNoiseLoop
    // Both channels share each filter's coefficients: one StereoBiquad per filter.
    @usableFromInline var filter = StereoBiquad(), shelf = StereoBiquad(), peak = StereoBiquad()
    /// Cutoff, Q, shelf and peak gains, gliding (τ 50 ms), and their coefficients.
    @usableFromInline var controls: PadFilterControls
    @usableFromInline var shaper: TanhShaper
    @usableFromInline var oversampler = HalfbandOversampler()
    public var envelope: TargetEnvelope
    /// Whether the voice holds a note (a chord change then crossfades instead of restarting).
    public private(set) var isActive = false
    public private(set) var timbre = Timbre()

    /// `bank` must be built for `sampleRate` (WavetableBank.shared); `seed` fixes the air noise.
    public init(sampleRate: Double, bank: WavetableBank, seed: UInt64, timbre: Timbre = Timbre()) {
        self.sampleRate = sampleRate
        self.bank = bank
        inverseRate = 1 / sampleRate
        glideFactor = Float(TargetEnvelope.factor(timeConstant: 0.05, sampleRate: sampleRate))
        controls = PadFilterControls(sampleRate: sampleRate)
        noise = AirNoiseLoop(sampleRate: sampleRate, seed: seed)
        shaper = TanhShaper(hardness: timbre.hardness)
        envelope = TargetEnvelope(value: 0, sampleRate: sampleRate)
        setFilter(.lowpass, cutoff: 3000, q: 1)
        setTimbre(timbre)
        gains = gainTargets  // start settled: nothing glides in from zero
        air = airTarget
        controls.settle()
        takeCoefficients()
    }

    public func deallocate() {
        noise.deallocate(); shaper.deallocate(); oversampler.deallocate(); envelope.deallocate()
    }

    /// The frame the next `next()` renders (the envelope's clock).
    public var frame: Int64 { envelope.frame }
    /// Main filter cutoff now in effect (Hz; it glides toward the last `setFilter`).
    public var filterCutoff: Double { controls.cutoff }
    /// Fundamental now sounding (Hz).
    public var currentFrequency: Double { frequency }

    /// New timbre; gains and EQ glide (τ 50 ms), detune and the shaper curve change at once.
    public mutating func setTimbre(_ t: Timbre) {
        timbre = t
        gainTargets = Self.oscillatorGains(brightness: t.oscBrightness)
        airTarget = Float(0.1 * t.airNoise)
        detuneRatio = FastMath.exp2(t.detuneCents / 1200)
        controls.setTone(warmth: t.warmth, presence: t.presence)
        shaper.setHardness(t.hardness)
    }

    /// Main filter (type, cutoff Hz, Q with Web Audio meaning), set by the caller each control
    /// tick. Cutoff and Q glide (τ 50 ms); the type switches at once.
    public mutating func setFilter(_ kind: WebAudioBiquad.Kind, cutoff: Double, q: Double) {
        controls.setFilter(kind, cutoff: cutoff, q: q)
    }

    @usableFromInline
    mutating func takeCoefficients() {
        filter.takeCoefficients(of: controls.filter)
        shelf.takeCoefficients(of: controls.shelf)
        peak.takeCoefficients(of: controls.peak)
    }

    /// Play `frequency` from `frame`: a fresh attack if idle, else the web's chord crossfade
    /// (release now, new pitch and attack R/2 later).
    public mutating func play(frequency: Double, envelope env: PadEnvelope, atFrame frame: Int64) {
        if isActive {
            let restart = envelope.scheduleCrossfade(env, atFrame: frame)
            pendingFrequency = frequency; pendingFrame = restart
        } else {
            envelope.scheduleAttack(env, atFrame: frame)
            pendingFrequency = frequency; pendingFrame = frame
        }
        isActive = true
    }

    /// A single note (a Euclid lane's): as `play`, then toward 0 (τ = R/3) once the note's
    /// length A + D + max(0.3 s, A + D) has passed from its start.
    public mutating func playNote(frequency: Double, envelope env: PadEnvelope, atFrame frame: Int64) {
        play(frequency: frequency, envelope: env, atFrame: frame)
        let length = env.attack + env.decay + max(0.3, env.attack + env.decay)
        envelope.setTarget(0, timeConstant: env.release / 3, atFrame: pendingFrame + Int64(length * envelope.sampleRate))
    }

    /// Release toward 0 (τ = R/4) from `frame`; the voice is then idle.
    public mutating func release(envelope env: PadEnvelope, atFrame frame: Int64) {
        envelope.scheduleRelease(env, atFrame: frame)
        pendingFrame = .max
        isActive = false
    }

    /// One stereo frame.
    @inlinable @inline(__always)
    public mutating func next() -> (left: Float, right: Float) {
        let (x, level) = source()
        if controls.tick() { takeCoefficients() }
        let y = peak.process(shelf.process(filter.process(x)))
        let curve = shaper  // a copy of the table's pointer, so the closure does not touch self
        let shaped = oversampler.process(y) { curve.process($0) }
        return (shaped[0] * level, shaped[1] * level)
    }

    /// One frame of what goes into the filters (the oscillators' mix plus the air, left and
    /// right) and of the gain after the shaper (envelope × 0.15): `next()` without the filters,
    /// shaper and filter controls, which `PadLanes` runs for six voices at once.
    @inlinable @inline(__always)
    public mutating func source() -> (input: SIMD2<Float>, level: Float) {
        if envelope.frame >= pendingFrame {
            frequency = pendingFrequency
            pendingFrame = .max
        }
        let f = frequency, up = f * detuneRatio, down = f / detuneRatio
        let g = gains
        // An oscillator whose gain is exactly 0 (one or two of the four at every brightness) is
        // not read: its term would add ±0, which changes no sum.
        var mono: Float = 0
        if g[0] != 0 { mono = g[0] * sine.value(.sine, frequency: f, bank: bank) }
        if g[1] != 0 { mono += g[1] * triangle.value(.triangle, frequency: down, bank: bank) }
        if g[2] != 0 { mono += g[2] * sawUp.value(.saw, frequency: up, bank: bank) }
        if g[3] != 0 { mono += g[3] * saw.value(.saw, frequency: f, bank: bank) }
        sine.advance(frequency: f, inverseRate: inverseRate)
        triangle.advance(frequency: down, inverseRate: inverseRate)
        sawUp.advance(frequency: up, inverseRate: inverseRate)
        saw.advance(frequency: f, inverseRate: inverseRate)
        gains = gainTargets + (gains - gainTargets) * glideFactor
        air = airTarget + (air - airTarget) * glideFactor
        let n = noise.next()
        return (SIMD2(mono + air * n.left, mono + air * n.right), Float(envelope.next()) * 0.15)
    }
}
