import EntrainDSP

/// The mix input's kernel: level, then mixam and mixpulse (gains at their rates), mixbeat (each
/// ear shifted in frequency through an analytic signal) and mixspin (a pan at its rate). Every
/// parameter glides per sample and no effect delays the music: the only latency on the mix path
/// is the output limiter's look-ahead, which the client reports to JACK.
struct MixShaper {
    typealias Field = MixParameters.Field

    var level: Glide
    var amDepth: Glide, amRate: Glide
    var amShape: ChoiceCrossfade
    var pulseDepth: Glide, pulseRate: Glide, pulseDuty: Glide, pulseEdge: Glide
    var spinWidth: Glide, spinRate: Glide
    var beatDepth: Glide, beatRate: Glide
    var amPhase = 0.0, pulsePhase = 0.0, spinPhase = 0.0, beatPhase = 0.0
    var left = HilbertPair(), right = HilbertPair()
    let inverseRate: Double

    init(sampleRate: Double, values: (Field) -> Double) {
        inverseRate = 1 / sampleRate
        level = Glide(values(.level))
        amDepth = Glide(values(.amDepth)); amRate = Glide(values(.amRate))
        amShape = ChoiceCrossfade(selected: Int(values(.amShape)))
        pulseDepth = Glide(values(.pulseDepth)); pulseRate = Glide(values(.pulseRate))
        pulseDuty = Glide(values(.pulseDuty)); pulseEdge = Glide(values(.pulseEdge))
        spinWidth = Glide(values(.spinWidth)); spinRate = Glide(values(.spinRate))
        beatDepth = Glide(values(.beatDepth)); beatRate = Glide(values(.beatRate))
    }

    /// Silent (level 0, not moving): costs nothing and its phases wait.
    @inline(__always)
    var isActive: Bool { level.value != 0 || level.isMoving }

    mutating func set(_ field: Field, to value: Double, glideFrames: Int, exponential: Bool) {
        let frames = isActive || field == .level ? glideFrames : 0  // nothing to hear gliding on a silent input
        switch field {
        case .level: level.move(to: value, frames: frames, exponential: exponential)
        case .amDepth: amDepth.move(to: value, frames: frames)
        case .amRate: amRate.move(to: value, frames: frames, exponential: exponential)
        case .amShape: amShape.select(Int(value), frames: frames)
        case .pulseDepth: pulseDepth.move(to: value, frames: frames)
        case .pulseRate: pulseRate.move(to: value, frames: frames, exponential: exponential)
        case .pulseDuty: pulseDuty.move(to: value, frames: frames)
        case .pulseEdge: pulseEdge.move(to: value, frames: frames)
        case .spinWidth: spinWidth.move(to: value, frames: frames)
        case .spinRate: spinRate.move(to: value, frames: frames)
        case .beatDepth:
            // Switched on from silence: the shifters start from rest, as in any render.
            if beatDepth.value == 0 && !beatDepth.isMoving { left = HilbertPair(); right = HilbertPair() }
            beatDepth.move(to: value, frames: frames)
        case .beatRate: beatRate.move(to: value, frames: frames)
        }
    }

    /// Add the shaped music of frames `range` (from `inL`/`inR`) to `outL`/`outR`.
    mutating func render(_ inL: UnsafePointer<Float>, _ inR: UnsafePointer<Float>,
                         _ outL: UnsafeMutablePointer<Float>, _ outR: UnsafeMutablePointer<Float>, _ range: Range<Int>) {
        var s = self  // local copy: stores to the output could alias `self`
        defer { self = s }
        for i in range {
            guard s.isActive else { return }
            let (l, r) = s.next(Double(inL[i]), Double(inR[i]))
            outL[i] += Float(l)
            outR[i] += Float(r)
        }
    }

    @inline(__always)
    mutating func next(_ inL: Double, _ inR: Double) -> (Double, Double) {
        var gain = level.next()
        var l = inL, r = inR
        let am = amDepth.next(), amHz = amRate.next()
        amShape.advance()
        if am != 0 || amDepth.isMoving {
            gain *= 1 - am * (1 - amEnvelope())
            amPhase = Self.wrap(amPhase + amHz * inverseRate)
        }
        let pulse = pulseDepth.next(), pulseHz = pulseRate.next(), duty = pulseDuty.next(), edge = pulseEdge.next()
        if pulse != 0 || pulseDepth.isMoving {
            gain *= 1 - pulse * (1 - Double(IsochronicGate.value(phase: pulsePhase, duty: duty, edge: edge)))
            pulsePhase = Self.wrap(pulsePhase + pulseHz * inverseRate)
        }
        let shift = beatDepth.next(), beatHz = beatRate.next()
        if shift != 0 || beatDepth.isMoving {
            let (li, lq) = left.process(l), (ri, rq) = right.process(r)
            let c = FastMath.cosTurns(beatPhase), s = FastMath.sinTurns(beatPhase)
            // With this network i·cos θ − q·sin θ moves every partial down by θ's rate and
            // i·cos θ + q·sin θ up (MixInputTests measures it): left down by half the beat, right up.
            let down = li * c - lq * s, up = ri * c + rq * s
            l += shift * (down - l)
            r += shift * (up - r)
            beatPhase = Self.wrap(beatPhase + 0.5 * beatHz * inverseRate)
        }
        let width = spinWidth.next(), spinHz = spinRate.next()
        if width != 0 || spinWidth.isMoving {
            let (gl, gr) = Self.pan(width * FastMath.sinTurns(spinPhase))
            l *= gl
            r *= gr
            spinPhase = Self.wrap(spinPhase + spinHz * inverseRate)
        }
        return (l * gain, r * gain)
    }

    /// The mixam envelope at its phase, 1 at the top and 0 at the bottom (crossfaded while the
    /// shape changes).
    @inline(__always)
    func amEnvelope() -> Double {
        if !amShape.isMoving { return Self.envelope(amShape.selected, amPhase) }
        var e = 0.0
        for k in 0..<3 where amShape.current[k] != 0 { e += Double(amShape.current[k]) * Self.envelope(k, amPhase) }
        return e
    }

    @inline(__always)
    static func envelope(_ shape: Int, _ phase: Double) -> Double {
        switch shape {
        case MixParameters.AMShape.triangle.rawValue: return phase < 0.5 ? 1 - 2 * phase : 2 * phase - 1
        case MixParameters.AMShape.pulse.rawValue: return Double(IsochronicGate.value(phase: phase, duty: 0.5, edge: 0.1))
        default: return 0.5 + 0.5 * FastMath.cosTurns(phase)
        }
    }

    /// Gains for a position from −1 (left only) through 0 (both as they are) to +1 (right only):
    /// the far side falls along a quarter cosine, smooth through the centre.
    @inline(__always)
    static func pan(_ position: Double) -> (Double, Double) {
        let fall = FastMath.cosTurns(0.25 * abs(position))
        return position > 0 ? (fall, 1) : (1, fall)
    }

    @inline(__always)
    static func wrap(_ phase: Double) -> Double { phase >= 1 ? phase - 1 : (phase < 0 ? phase + 1 : phase) }
}
