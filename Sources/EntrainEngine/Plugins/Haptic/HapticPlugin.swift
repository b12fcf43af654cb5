import EntrainCore
import EntrainDSP

/// The tactile drive on the `haptic` port: a 30–80 Hz carrier whose frequency and shape follow
/// sharpness, amplitude-modulated by intensity. Intensity is the strongest of its sources: voice
/// 1's beat (a sinusoidal swell on the same clock as the strobe), a burst on each detected beat,
/// a manual level, the playing AHAP pattern. Like the light it is silent on panic and while JACK
/// freewheels, waits in a delay line to land with the sound, and stays under the master ceiling.
struct HapticPlugin: EnginePlugin {
    typealias P = HapticParameters
    static var descriptor: PluginDescriptor { P.descriptor }

    let sampleRate: Double
    let inverseRate: Double
    /// Voice 1's beat, on the same kind of exact clock as the strobe's.
    var follower: VoiceFollower
    var useEntrainment = false, useBeat = false, useManual = false, usePattern = true
    var intensity = Glide(0.5)
    var sharpness = Glide(0.3)
    var level = Glide(0.5)
    var burstDecay: Float = 0.999
    var burst: Float = 0
    var carrierPhase = 0.0

    var beats = InlineArray<16, Int64>(repeating: 0)
    var beatCount = 0
    var periodStart: Int64 = 0
    var blackout = false
    var freewheeling = false
    /// The client's start/stop fade: still with the sound once it stops.
    var outputFade = OutputFade()
    var latencyFrames = 0
    /// The master ceiling as linear gain, applied after the delay line so a lowered ceiling
    /// holds on this port from the same frame as on the audio pairs.
    var ceiling: Float = 0.89
    /// While the haptic bus has an insert chain: where the signal goes before the chain (the
    /// ceiling is applied after it, in `finish`).
    var beforeInserts: UnsafeMutablePointer<Float>?
    var pattern = PatternPlayback()
    var delay: DelayLine
    /// The envelope as CV (haptic_intensity, haptic_sharpness with --haptic-cv), delayed alike.
    var intensityDelay: DelayLine
    var sharpnessDelay: DelayLine

    init(sampleRate: Double, values: [Double]) {
        self.sampleRate = sampleRate
        inverseRate = 1 / sampleRate
        follower = VoiceFollower(sampleRate: sampleRate)
        delay = DelayLine(capacity: Int(2.5 * sampleRate))
        intensityDelay = DelayLine(capacity: Int(2.5 * sampleRate))
        sharpnessDelay = DelayLine(capacity: Int(2.5 * sampleRate))
        for (index, value) in values.enumerated() { set(index, to: value, glideFrames: 0, exponential: false) }
    }

    func deallocate() {
        delay.deallocate()
        intensityDelay.deallocate()
        sharpnessDelay.deallocate()
    }

    mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool) {
        switch index {
        case P.sourceEntrainment: useEntrainment = value != 0
        case P.sourceBeat: useBeat = value != 0
        case P.sourceManual: useManual = value != 0
        case P.sourcePattern: usePattern = value != 0
        case P.intensity: intensity.move(to: value, frames: glideFrames)
        case P.sharpness: sharpness.move(to: value, frames: glideFrames)
        case P.level: level.move(to: value, frames: glideFrames)
        case P.beatDecay: burstDecay = Float(FastMath.exp2(-1.442_695_040_888_963 * 1000 / (value * sampleRate)))
        default: break
        }
    }

    mutating func queueBeat(at frame: Int64) {
        guard beatCount < 16 else { return }
        beats[beatCount] = frame
        beatCount += 1
    }

    mutating func endPeriod() { beatCount = 0 }

    mutating func render(_ io: PortBuffers, _ range: Range<Int>) {
        let out = io[.haptic], intensityOut = io[.hapticIntensity], sharpnessOut = io[.hapticSharpness]
        // Nobody listens: skip the work, and pick up voice 1's phase again when someone does.
        guard out != nil || intensityOut != nil || sharpnessOut != nil else {
            follower.forget()
            burst = 0
            delay.forgetDelay()
            intensityDelay.forgetDelay()
            sharpnessDelay.forgetDelay()
            outputFade.settle()
            return
        }
        delay.setDelay(latencyFrames)
        intensityDelay.setDelay(latencyFrames)
        sharpnessDelay.setDelay(latencyFrames)
        follower.begin(following: useEntrainment)
        let swell = follower.active
        for i in range {
            let frame = periodStart + Int64(i)
            let (f, phase) = follower.next(frame: frame)
            var feel = Float(sharpness.next())
            let manualLevel = Float(intensity.next())
            var strength: Float = 0
            if swell {
                // Above half the lowest carrier a swell cannot be felt as one: hold it steady.
                strength = f * 2 > P.lowestCarrier ? 1 : Float(0.5 + 0.5 * FastMath.cosTurns(phase))
            }
            if useBeat {
                for k in 0..<beatCount where beats[k] == frame { burst = 1 }
                strength = max(strength, burst)
            }
            burst *= burstDecay
            if useManual { strength = max(strength, manualLevel) }
            if usePattern, let now = pattern.value(at: frame) {
                strength = max(strength, now.intensity)
                feel = now.sharpness
            }
            let carrier = P.lowestCarrier + (P.highestCarrier - P.lowestCarrier) * Double(feel)
            let y = Self.shape(Float(FastMath.sinTurns(carrierPhase)), sharpness: feel)
            carrierPhase += carrier * inverseRate
            if carrierPhase >= 1 { carrierPhase -= 1 }
            let silent = blackout || freewheeling
            let gain = Float(level.next())
            let envelope = silent ? 0 : gain * strength * outputFade.next()
            let delayed = delay.process(envelope * y)
            let envelopeLater = intensityDelay.process(envelope), feelLater = sharpnessDelay.process(feel)
            if let beforeInserts {
                beforeInserts[i] = silent ? 0 : delayed * ceiling  // the chain runs, then the ceiling
            } else {
                out?[i] = silent ? 0 : min(ceiling, max(-ceiling, delayed * ceiling))
            }
            intensityOut?[i] = silent ? 0 : envelopeLater
            sharpnessOut?[i] = silent ? 0 : feelLater
        }
    }

    /// Sine up to sharpness 0.5, then driven through a soft clipper towards a square (a crisper
    /// feel), normalised so the peak stays 1.
    @inline(__always)
    static func shape(_ s: Float, sharpness: Float) -> Float {
        guard sharpness > 0.5 else { return s }
        let drive = 1 + 12 * (sharpness - 0.5)
        return softClip(drive * s) / softClip(drive)
    }

    /// A rational tanh: odd, monotonic, saturating.
    @inline(__always)
    static func softClip(_ x: Float) -> Float {
        let c = min(max(x, -3), 3)
        return c * (27 + c * c) / (27 + 9 * c * c)
    }
}
