import EntrainDSP
import Kessho

/// What the lead and drums keep time with, chosen per run (`--set /ambient/tempoSource=…`), by a
/// session stage or over OSC.
public enum AmbientTempoSource: String, CaseIterable, Sendable {
    /// The engine's own grid, as the web: drums at drumEuclidBaseBPM × drumEuclidTempo on beats
    /// counted from the Unix epoch, the lead on the 16 s phrase.
    case phrase
    /// JACK transport's tempo and bar position, while a timebase master runs.
    case jack
    /// The beat the analysis finds on `beat_in`.
    case beat
    /// Ableton Link's session while entrain follows one (peers present, role follow). The phrase
    /// source follows it too: a followed session replaces the engine's own grid.
    case link
}

/// One of the conductor's own settings: what the ambient family sets beside the Kessho keys,
/// typed (never a Kessho key, never part of the hashed state or a preset's keys).
public enum ConductorSetting: Sendable, Equatable {
    /// What the lead and drums keep time with.
    case tempoSource(AmbientTempoSource)
    /// Drum lane `lane`'s (0…3) evolve setting.
    case evolve(lane: Int, DrumEvolveSetting.Field)
}

/// An outside beat grid on engine frames: beat number `index` falls on `anchorFrame`, and a beat
/// lasts `periodFrames`.
public struct ExternalBeat: Sendable, Equatable {
    public var anchorFrame: Int64
    public var index: Double
    public var periodFrames: Double

    public init(anchorFrame: Int64, index: Double, periodFrames: Double) {
        self.anchorFrame = anchorFrame
        self.index = index
        self.periodFrames = periodFrames
    }

    /// Beats (fractional) at `frame`, and the frame of beat `b`.
    func beat(at frame: Int64) -> Double { index + Double(frame - anchorFrame) / periodFrames }
    func frame(ofBeat b: Double) -> Int64 { anchorFrame + Int64(((b - index) * periodFrames).rounded(.up)) }
}

/// The drums' beat on engine frames: the phrase grid's epoch-counted beats at the state's BPM ×
/// tempo, or an outside beat divided by the tempo multiplier.
struct DrumClock {
    var grid: PhraseGrid
    var external: ExternalBeat?
    var beatSeconds: Double
    var tempo: Double

    func beat(at frame: Int64) -> Double {
        if let e = external { return e.beat(at: frame) * tempo }
        return grid.unixTime(at: frame) / beatSeconds
    }

    func frame(ofBeat b: Double) -> Int64 {
        if let e = external { return e.frame(ofBeat: b / tempo) }
        return grid.frameRoundedUp(at: b * beatSeconds)
    }
}

/// The drum machine's four Euclidean lanes (drum Bjorklund, right rotation), each on its fixed
/// clock division (1/8, 1/16, 1/8 triplets, 1/4), counting steps from the clock's beat 0 so
/// the same start time gives the same hits.
struct DrumLanes {
    static let stepsPerBeat: [Double] = [2, 4, 3, 1]

    struct Lane {
        var pattern: [Bool]
        var targets: [DrumSound.Voice]
        var probability: Double, level: Double
        /// The resolved Bjorklund hits and rotation (evolve moves them).
        var hits = 0, rotation = 0
        /// Per step: velocity and chance (evolve varies them; at home the level and 1).
        var velocities: [Double] = [], chances: [Double] = []
        /// Odd steps are late by half the swing of a step; hits are transposed by `pitchRatio`.
        var swing = 0.0, pitchRatio = 1.0
        /// Per step (evolve sets them; empty at home): how many times the hit sounds (1 = once),
        /// and how far the voice's A↔B morph moves for it.
        var ratchets: [Int] = [], morphShifts: [Double] = []
    }

    var nextStep: [Int64] = [0, 0, 0, 0]
    var pick: [Mulberry32]

    init(seed: UInt64) {
        pick = (0..<4).map { Mulberry32(seed: UInt32(truncatingIfNeeded: seed &* 31 &+ UInt64($0) &+ 0xD5)) }
    }

    /// Whether the drums play at all: the drum machine and its sequencer are on.
    static func runs(_ s: KesshoState) -> Bool {
        s.bool("drumEnabled") == true && s.bool("drumEuclidMasterEnabled") == true
    }

    static func lanes(_ s: KesshoState) -> [Lane?] {
        (1...4).map { n in
            let key = { (f: String) in "drumEuclid\(n)\(f)" }
            guard s.bool(key("Enabled")) == true else { return nil }
            let targets = DrumSound.Voice.allCases.filter { s.bool(key("Target\($0.name)")) == true }
            guard !targets.isEmpty else { return nil }
            func int(_ f: String, _ d: Int) -> Int { Int(saturating: s.number(key(f)) ?? Double(d)) }
            let p = KesshoEuclid.drumLane(preset: s.string(key("Preset")) ?? "custom", steps: int("Steps", 8),
                                          hits: int("Hits", 4), rotation: int("Rotation", 0))
            let pattern = KesshoEuclid.drumPattern(steps: p.steps, hits: p.hits, rotation: p.rotation)
            let level = s.number(key("Level")) ?? 0.8
            return Lane(pattern: pattern, targets: targets, probability: s.number(key("Probability")) ?? 1, level: level,
                        hits: p.hits, rotation: p.rotation, velocities: pattern.map { _ in level },
                        chances: pattern.map { _ in 1 })
        }
    }

    /// Every lane's next step at or after `frame`.
    mutating func resync(from frame: Int64, clock: DrumClock) {
        let beat = clock.beat(at: frame)
        for l in 0..<4 { nextStep[l] = Int64((beat * Self.stepsPerBeat[l]).rounded(.up)) }
    }

    /// Step `step`'s place in a pattern of `count` steps.
    static func index(_ step: Int64, of count: Int) -> Int { Int(((step % Int64(count)) + Int64(count)) % Int64(count)) }

    /// The earliest hit step among `lanes` (lane, step, frame), not before `floor`.
    func next(_ lanes: [Lane?], clock: DrumClock) -> (lane: Int, step: Int64, frame: Int64)? {
        var best: (Int, Int64, Int64)?
        for l in 0..<4 {
            guard let lane = lanes[l], lane.pattern.contains(true) else { continue }
            var step = nextStep[l]
            while !lane.pattern[Self.index(step, of: lane.pattern.count)] { step += 1 }
            let late = step % 2 != 0 ? 0.5 * lane.swing : 0
            let frame = clock.frame(ofBeat: (Double(step) + late) / Self.stepsPerBeat[l])
            if best == nil || frame < best!.2 { best = (l, step, frame) }
        }
        return best
    }
}

extension PhraseGrid {
    /// Unix time of an engine frame on this grid.
    func unixTime(at frame: Int64) -> Double { origin.unixSeconds + Double(frame - origin.frame) / sampleRate }

    /// The first engine frame at or after Unix time `t`.
    func frameRoundedUp(at t: Double) -> Int64 {
        origin.frame + Int64(((t - origin.unixSeconds) * sampleRate).rounded(.up))
    }
}
