import EntrainCore
import EntrainDSP

/// SBaGen's spinning noise and struck bell on the entrainment pair, and the cue bell, which
/// rings after the start/stop fade (so an end cue is heard through the fade-out) but under the
/// panic mute and the ceiling like everything else.
public struct SoundsPlugin: EnginePlugin {
    typealias P = SoundsParameters
    typealias Field = P.Field

    public static let descriptor = PluginDescriptor(id: "sounds", parameters: P.specs)

    let inverseRate: Double
    var spinLevel: Glide, spinWidth: Glide, spinRate: Glide
    var spinNoise: ChoiceCrossfade
    var spinPhase = 0.0
    var noise = StereoNoise(leftSeed: 0x5350_494E, rightSeed: 0x5350_494F)  // only the left lane is used: one source, panned
    var bell: BellTone
    var bellFrequency: Double, bellLevel: Double, bellOn: Bool
    var cue: BellTone
    var cueStage: Double, cueEnd: Double, cueFrequency: Double, cueLast = 0
    /// The cue bell's output for the current range (mono: it is centred), `Engine.maximumChunk` frames.
    let cueBuffer: UnsafeMutablePointer<Float>

    public init(sampleRate: Double, values: [Double]) {
        func v(_ f: Field) -> Double { values[f.rawValue] }
        inverseRate = 1 / sampleRate
        spinLevel = Glide(v(.spinLevel)); spinWidth = Glide(v(.spinWidth)); spinRate = Glide(v(.spinRate))
        spinNoise = ChoiceCrossfade(selected: Int(v(.spinNoise)))
        bell = BellTone(sampleRate: sampleRate)
        bellFrequency = v(.bellFrequency); bellLevel = v(.bellLevel); bellOn = v(.bellStrike) != 0
        cue = BellTone(sampleRate: sampleRate)
        cueStage = v(.cueStage); cueEnd = v(.cueEnd); cueFrequency = v(.cueFrequency)
        cueBuffer = .allocate(capacity: Engine.maximumChunk)
        cueBuffer.initialize(repeating: 0, count: Engine.maximumChunk)
        if bellOn { bell.strike(level: bellLevel) }  // a session's first stage may strike on its first frame
    }

    public mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool) {
        guard let field = Field(rawValue: index) else { return }
        let spinning = spinLevel.value != 0 || spinLevel.isMoving
        let frames = spinning || field == .spinLevel ? glideFrames : 0
        switch field {
        case .spinLevel: spinLevel.move(to: value, frames: frames)
        case .spinNoise: spinNoise.select(Int(value), frames: frames)
        case .spinWidth: spinWidth.move(to: value, frames: frames)
        case .spinRate: spinRate.move(to: value, frames: frames)
        case .bellFrequency: bellFrequency = value
        case .bellLevel: bellLevel = value
        case .bellStrike:
            if value != 0 && !bellOn { bell.strike(level: bellLevel) }
            bellOn = value != 0
        case .cueStage: cueStage = value
        case .cueEnd: cueEnd = value
        case .cueFrequency: cueFrequency = value
        case .cueStrike:
            let which = Int(value)
            if which != cueLast { ringCue(which) }
            cueLast = which
        }
    }

    /// Ring cue `which` (a `P.Cue`) at its level; off at level 0.
    mutating func ringCue(_ which: Int) {
        let level = which == P.Cue.stage.rawValue ? cueStage : which == P.Cue.end.rawValue ? cueEnd : 0
        if level > 0 { cue.strike(level: level) }
    }

    /// The end cue, rung by the engine when a stop's fade-out begins.
    mutating func ringEndCue() { ringCue(P.Cue.end.rawValue) }

    /// Whether the cue bell still sounds (a stopping engine waits for it).
    var cueRinging: Bool { cue.isRinging }

    /// `render`, then the cue bell's frames if it sounded in this range (nil when silent).
    @inline(__always)
    mutating func renderWithCue(_ io: PortBuffers, _ range: Range<Int>) -> UnsafePointer<Float>? {
        let ringing = cue.isRinging
        render(io, range)
        return ringing ? UnsafePointer(cueBuffer) : nil
    }

    /// Adds spin and bell to the entrainment pair; leaves the cue bell in `cueBuffer`.
    public mutating func render(_ io: PortBuffers, _ range: Range<Int>) {
        guard let outL = io[.entrainmentL], let outR = io[.entrainmentR] else { return }
        var s = self  // local copy: stores to the output could alias `self`
        defer { self = s }
        if s.spinLevel.value != 0 || s.spinLevel.isMoving {
            for i in range {
                let n = s.nextSpin()
                outL[i] += n.0
                outR[i] += n.1
            }
        }
        if s.bell.isRinging {
            for i in range {
                let b = Float(s.bell.next(frequency: s.bellFrequency, inverseRate: s.inverseRate))
                outL[i] += b
                outR[i] += b
            }
        }
        if s.cue.isRinging {
            for i in range { s.cueBuffer[i] = Float(s.cue.next(frequency: s.cueFrequency, inverseRate: s.inverseRate)) }
        }
    }

    /// One frame of the spinning noise: one noise source, panned at the rate (the mix input's pan law).
    @inline(__always)
    mutating func nextSpin() -> (Float, Float) {
        let level = spinLevel.next(), width = spinWidth.next(), rate = spinRate.next()
        spinNoise.advance()
        var source: Float
        if !spinNoise.isMoving, let only = NoiseColor(rawValue: spinNoise.selected) {
            source = noise.next(only).x
        } else {
            let n = noise.next()
            source = spinNoise.current[0] * n.white.x + spinNoise.current[1] * n.pink.x + spinNoise.current[2] * n.brown.x
        }
        source *= Float(level)
        let (gl, gr) = MixShaper.pan(width * FastMath.sinTurns(spinPhase))
        spinPhase = MixShaper.wrap(spinPhase + rate * inverseRate)
        return (source * Float(gl), source * Float(gr))
    }

    public func deallocate() { cueBuffer.deallocate() }
}
