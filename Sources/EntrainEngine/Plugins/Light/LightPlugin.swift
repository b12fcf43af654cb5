import EntrainCore
import EntrainDSP

/// Light on the `led` CV port (0..1): a strobe locked to voice 1's beat, a flash on each beat
/// found in beat_in, a manual level and the playing pattern, mixed by taking the brightest.
///
/// Safety lives here, not in the control plane: flashing sources pass only while armed, the
/// strobe is dark outside 0.5–50 Hz, the thermal state caps the level, a panic or JACK's
/// freewheeling blacks it out at once. Then the signal waits in a delay line so it lands with
/// the sound the listener hears.
struct LightPlugin: EnginePlugin {
    typealias P = LightParameters
    static var descriptor: PluginDescriptor { P.descriptor }

    let sampleRate: Double
    /// Voice 1's beat, on an exact clock.
    var follower: VoiceFollower

    var armed = false
    var useEntrainment = true, useBeat = false, useManual = false, usePattern = false
    var level = Glide(1)
    var manual = Glide(0)
    var duty = 0.0
    var edgeFrames = 48.0
    var sine = false
    var beatDecay: Float = 0.999
    var offsetFrames = 0
    var thermal: LEDThermalModel
    /// Each LED port's share of the brightness.
    var gains = InlineArray<8, Glide>(repeating: Glide(1))

    /// Beats of this period (engine frames), queued by the engine before rendering.
    var beats = InlineArray<16, Int64>(repeating: 0)
    var beatCount = 0
    var flash: Float = 0
    /// Engine frame of offset 0 in the current period.
    var periodStart: Int64 = 0
    var blackout = false
    var freewheeling = false
    /// The client's start/stop fade: dark with the sound once it stops.
    var outputFade = OutputFade()
    /// Frames the sound reaches the listener later than the light (JACK's view), set per period.
    var latencyFrames = 0
    var delay: DelayLine
    /// The playing pattern, when one plays (set by the engine).
    var patternPlayback = PatternPlayback()

    init(sampleRate: Double, values: [Double]) {
        self.sampleRate = sampleRate
        follower = VoiceFollower(sampleRate: sampleRate)
        thermal = LEDThermalModel(sampleRate: sampleRate)
        delay = DelayLine(capacity: Int(2.5 * sampleRate))
        for (index, value) in values.enumerated() { set(index, to: value, glideFrames: 0, exponential: false) }
    }

    func deallocate() { delay.deallocate() }

    mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool) {
        switch index {
        case P.arm: armed = value != 0
        case P.sourceEntrainment: useEntrainment = value != 0
        case P.sourceBeat: useBeat = value != 0
        case P.sourceManual: useManual = value != 0
        case P.sourcePattern: usePattern = value != 0
        case P.level: level.move(to: value, frames: glideFrames)
        case P.duty: duty = value
        case P.edge: edgeFrames = value * sampleRate / 1000
        case P.shape: sine = value == 1
        case P.beatDecay: beatDecay = Float(FastMath.exp2(-1.442_695_040_888_963 * 1000 / (value * sampleRate)))
        case P.manual: manual.move(to: value, frames: glideFrames)
        case P.offset: offsetFrames = Int(value * sampleRate / 1000)
        case P.thermal: thermal.reported = LEDThermalModel.State(rawValue: Int(value)) ?? .critical
        default:
            let port = index - P.gain(port: 1)
            if port >= 0 && port < P.portCount { gains[port].move(to: value, frames: glideFrames) }
        }
    }

    /// Queue a beat of this period (from the beat analysis, which runs first).
    mutating func queueBeat(at frame: Int64) {
        guard beatCount < 16 else { return }
        beats[beatCount] = frame
        beatCount += 1
    }

    mutating func render(_ io: PortBuffers, _ range: Range<Int>) {
        // The LED ports present this period (port number − 1, buffer), packed.
        var outs = InlineArray<8, UnsafeMutablePointer<Float>?>(repeating: nil)
        var numbers = InlineArray<8, Int>(repeating: 0)
        var present = 0
        for p in 0..<P.portCount {
            if let buffer = p == 0 ? io[.led] : io.buffers[ClientPort.led2.rawValue + p - 1] {
                outs[present] = buffer
                numbers[present] = p
                present += 1
            }
        }
        // Nobody listens (no LED port connected, or an offline render of the audio only): skip
        // the work, and pick up voice 1's phase again when someone does.
        guard present > 0 else {
            follower.forget()
            flash = 0
            delay.forgetDelay()
            outputFade.settle()
            return
        }
        let first = outs[0]!  // the light, before each port's share
        delay.setDelay(latencyFrames + offsetFrames)
        follower.begin(following: useEntrainment)
        let strobeOn = follower.active, isochronic = follower.isochronic
        for i in range {
            let frame = periodStart + Int64(i)
            let (f, phase) = follower.next(frame: frame)
            let brightness = Float(level.next())
            var x: Float = 0
            if armed {
                if strobeOn && f >= P.minimumStrobeRate && f <= P.maximumStrobeRate {
                    x = brightness * strobe(phase: phase, frequency: f, centred: !isochronic)
                }
                if useBeat {
                    for k in 0..<beatCount where beats[k] == frame { flash = 1 }
                    x = max(x, brightness * flash)
                }
                if usePattern, let now = patternPlayback.value(at: frame) { x = max(x, brightness * now.intensity) }
            }
            flash *= beatDecay
            let steadyLevel = Float(manual.next())
            if useManual { x = max(x, steadyLevel) }
            x = min(x, thermal.cap) * outputFade.next()
            if blackout || freewheeling { x = 0 }
            thermal.heat(by: x)
            let delayed = delay.process(x)  // x is 0 in a blackout: nothing old replays after it
            first[i] = blackout || freewheeling ? 0 : delayed
        }
        // Each port's share, the first port's last (its buffer holds the light until then); a
        // share at rest is one number for the whole range.
        for k in (0..<present).reversed() {
            let out = outs[k]!, port = numbers[k]
            if gains[port].isMoving {
                for i in range { out[i] = first[i] * Float(gains[port].next()) }
            } else {
                let gain = Float(gains[port].value)
                for i in range { out[i] = first[i] * gain }
            }
        }
    }

    /// After the period: forget its beats, re-evaluate the thermal state.
    mutating func endPeriod() {
        beatCount = 0
        thermal.update()
    }

    /// The strobe at `phase` (0..1 of a beat period): a square with raised-cosine edges, or a
    /// sine. The on-window starts at phase 0 for isochronic sound (with the pulse) and is centred
    /// on phase 0 for binaural and monaural beats (on the loudness peak).
    @inline(__always)
    func strobe(phase: Double, frequency: Double, centred: Bool) -> Float {
        let on = duty > 0 ? duty : (frequency > 30 ? 0.15 : 0.5)
        // Sine: brightest at the middle of the on-window, dark half a period away.
        if sine { return Float(0.5 + 0.5 * FastMath.cosTurns(phase - (centred ? 0 : on * 0.5))) }
        var p = centred ? phase + on * 0.5 : phase
        if p >= 1 { p -= 1 }
        if p >= on { return 0 }
        let ramp = min(edgeFrames * frequency / sampleRate, on * 0.5)
        if ramp <= 0 { return 1 }
        if p < ramp { return Float(0.5 - 0.5 * FastMath.cosTurns(0.5 * p / ramp)) }
        if p > on - ramp { return Float(0.5 - 0.5 * FastMath.cosTurns(0.5 * (on - p) / ramp)) }
        return 1
    }
}
