/// The Kessho web engine's granulator (its live JavaScript worklet), restated in Swift: a
/// 192 000-frame stereo circular buffer fed by the input, a fixed pool of
/// 64 Hann-windowed grains that read it back at 1×–2× `spray` in the past with harmonic or
/// random pitch and equal-power pan, tanh feedback into the buffer, and a pink-noise bed when
/// the input falls silent. Output is the grain sum × 0.3 (the worklet's fixed wet mix).
///
/// The web's grain draws come from a per-phrase engine sequence and its noise from
/// `Math.random`; here the noise and, unless a sequence is loaded (`loadSequence`), the draws
/// come from generators seeded at init, so the same seed gives bit-identical output.
/// No allocation after `init`.
public struct Granulator {
    // Constants are computed, not stored: a static let would run a lazy initialiser on the process thread.
    /// Frames in the buffer: the worklet's 4·48 000, whatever the sample rate.
    @inlinable public static var bufferLength: Int { 192_000 }
    @inlinable public static var maxGrains: Int { 64 }
    /// The worklet's wet mix; the engine's `level` never reaches it.
    @inlinable public static var outputGain: Float { 0.3 }
    @inlinable static var windowLength: Int { 1024 }
    @inlinable static var panSteps: Int { 256 }
    /// Harmonic-mode intervals in semitones; a prefix of it is eligible (see `harmonicCount`).
    @inlinable static var harmonicIntervals: InlineArray<11, Double> { [0, 7, 12, -12, 19, 5, -7, 24, -5, 4, -24] }

    public let sampleRate: Double
    @usableFromInline let bufferL: UnsafeMutablePointer<Float>
    @usableFromInline let bufferR: UnsafeMutablePointer<Float>
    @usableFromInline let grains: UnsafeMutablePointer<Grain>
    @usableFromInline let window: UnsafeMutablePointer<Float>
    /// Equal-power pan gains, left then right, per table step.
    @usableFromInline let panL: UnsafeMutablePointer<Float>
    @usableFromInline let panR: UnsafeMutablePointer<Float>
    @usableFromInline var writePosition = 0
    @usableFromInline var random: RandomSource
    @usableFromInline var pink: KelletPink
    /// An optional engine-supplied draw sequence (see `loadSequence`).
    @usableFromInline let sequence: UnsafeMutablePointer<Float>
    @usableFromInline var sequenceCount = 0
    @usableFromInline var sequenceIndex = 0

    // Derived from the settings (all in samples or plain factors).
    @usableFromInline var samplesPerSpawn = 1920
    @usableFromInline var probability = 0.8
    /// Grain size bounds stay in ms: the worklet draws the size in ms, then converts.
    @usableFromInline var sizeMin = 50.0, sizeMax = 50.0
    @usableFromInline let samplesPerMillisecond: Double
    @usableFromInline var spray = 9600.0, jitter = 480.0
    @usableFromInline var pitchMode = PitchMode.harmonic
    @usableFromInline var pitchSpread = 3.0
    @usableFromInline var harmonicCount = 2
    @usableFromInline var stereoSpread = 0.6
    @usableFromInline var feedback: Float = 0.1
    @usableFromInline var transpose = 0.0

    @usableFromInline var spawnCounter = 0
    @usableFromInline var silentFrames = 0
    @usableFromInline var fillRamp: Float = 0
    @usableFromInline let silenceFrames: Int
    @usableFromInline let rampStep: Float

    @usableFromInline var activeCount = 0
    @usableFromInline var startedCount = 0
    /// Grains playing now (never more than `maxGrains`).
    public var activeGrains: Int { activeCount }
    /// Grains started since `init`: tests measure the onset rate with it.
    public var grainsStarted: Int { startedCount }

    public init(sampleRate: Double, seed: UInt64, settings: Settings = Settings()) {
        self.sampleRate = sampleRate
        samplesPerMillisecond = sampleRate / 1000
        silenceFrames = Int(0.5 * sampleRate)
        rampStep = Float(1 / (2 * sampleRate))
        random = RandomSource(seed: seed)
        // A separate stream for noise, so grain draws do not depend on how much noise was made.
        pink = KelletPink(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        let n = Self.bufferLength
        bufferL = .allocate(capacity: n)
        bufferR = .allocate(capacity: n)
        // Pre-fill with pink noise so the first grains have material; right is a slightly
        // different level of the same noise, as in the worklet.
        var prefill = RandomSource(seed: seed ^ 0xD1B5_4A32_D192_ED03)
        for i in 0..<n {
            let p = pink.next()
            bufferL[i] = p
            bufferR[i] = p * Float(1 + (Self.unit(&prefill) - 0.5) * 0.1)
        }
        sequence = .allocate(capacity: Self.sequenceCapacity)
        sequence.initialize(repeating: 0, count: Self.sequenceCapacity)
        grains = .allocate(capacity: Self.maxGrains)
        grains.initialize(repeating: Grain(), count: Self.maxGrains)
        window = .allocate(capacity: Self.windowLength)
        for i in 0..<Self.windowLength {
            window[i] = Float(0.5 * (1 - FastMath.cosTurns(Double(i) / Double(Self.windowLength))))
        }
        panL = .allocate(capacity: Self.panSteps)
        panR = .allocate(capacity: Self.panSteps)
        for i in 0..<Self.panSteps {
            let p = Double(i) / Double(Self.panSteps - 1) * 2 - 1
            panL[i] = Float(FastMath.cosTurns((p + 1) / 8))  // cos((p+1)·π/4)
            panR[i] = Float(FastMath.sinTurns((p + 1) / 8))
        }
        apply(settings)
    }

    public func deallocate() {
        bufferL.deallocate()
        bufferR.deallocate()
        grains.deallocate()
        sequence.deallocate()
        window.deallocate()
        panL.deallocate()
        panR.deallocate()
    }

    /// Take new settings; grains already playing keep theirs.
    public mutating func apply(_ s: Settings) {
        func clamp(_ x: Double, _ low: Double, _ high: Double) -> Double { x.isNaN ? low : min(max(x, low), high) }
        let density = clamp(s.density, 5, 80)
        samplesPerSpawn = max(1, Int(sampleRate / density))
        probability = clamp(s.grainProbability, 0, 1)
        let a = clamp(s.grainSizeMinMilliseconds, 5, 800), b = clamp(s.grainSizeMaxMilliseconds, 5, 800)
        sizeMin = min(a, b)
        sizeMax = max(a, b)
        spray = clamp(s.sprayMilliseconds, 0, 600) * sampleRate / 1000
        jitter = clamp(s.jitterMilliseconds, 0, 30) * sampleRate / 1000
        pitchMode = s.pitchMode
        pitchSpread = clamp(s.pitchSpread, 0, 12)
        harmonicCount = min(11, max(1, Int(pitchSpread / 12 * 11)))
        stereoSpread = clamp(s.stereoSpread, 0, 1)
        feedback = Float(clamp(s.feedback, 0, 0.35))
        transpose = clamp(s.transposeSemitones, -24, 24)
    }

    /// Restart the draw stream, as the web does with each phrase's new sequence.
    public mutating func reseed(_ seed: UInt64) { random = RandomSource(seed: seed) }

    /// One stereo frame in, one out.
    @inlinable
    public mutating func process(_ inL: Float, _ inR: Float) -> (Float, Float) {
        var l = inL, r = inR
        fillSilence(&l, &r)
        let w = writePosition
        bufferL[w] = l
        bufferR[w] = r
        spawnCounter += 1
        if spawnCounter >= samplesPerSpawn {
            spawnCounter = 0
            spawn()
        }
        let (wetL, wetR) = playGrains()
        // Feedback is added to the slot just written, so it is heard one buffer length later.
        let fed = FastTanh.tanh(SIMD2(wetL, wetR) * feedback)
        bufferL[w] += fed[0]
        bufferR[w] += fed[1]
        writePosition = w + 1 == Self.bufferLength ? 0 : w + 1
        return (wetL * Self.outputGain, wetR * Self.outputGain)
    }

    /// After 0.5 s of near-silence, replace the input with pink noise faded in over 2 s.
    @inlinable @inline(__always)
    mutating func fillSilence(_ l: inout Float, _ r: inout Float) {
        if l.magnitude + r.magnitude >= 0.001 {
            silentFrames = 0
            fillRamp = 0
            return
        }
        if silentFrames <= silenceFrames { silentFrames += 1 }
        if silentFrames > silenceFrames {
            l = pink.next() * 0.3 * fillRamp
            r = pink.next() * 0.3 * fillRamp
            fillRamp = min(1, fillRamp + rampStep)
        }
    }
}
