import Kessho

/// The slider modes a preset stores beside its state: the keys in `walk` mode,
/// which wander inside their dual range, and those in `sampleHold`, which the engine draws per
/// trigger (per grain, per ocean wave).
public struct KesshoSliders: Sendable, Equatable {
    public var modes = KesshoOrderedMap<KesshoSliderMode>()
    public var ranges = KesshoOrderedMap<KesshoDualRange>()

    public init() {}

    public init(_ preset: KesshoPreset) {
        modes = preset.sliderModes
        ranges = preset.dualRanges
    }

    /// The dual range of `key` when it is in `mode`.
    public func range(_ key: String, in mode: KesshoSliderMode) -> KesshoDualRange? {
        modes[key] == mode ? ranges[key] : nil
    }
}

/// The web app's walk-mode sliders: a 10 Hz momentum walk per key inside its range, reflecting
/// at the ends, written back into the state as the UI does (so it is hashed into the next
/// phrase's seed too). The web draws from Math.random; here from a stream seeded by the seed.
struct KesshoSliderWalk {
    struct Lane {
        let key: String
        let range: KesshoDualRange
        var position: Double
        var velocity: Double
    }

    private(set) var lanes: [Lane] = []
    private var random: KesshoRandom

    init(_ sliders: KesshoSliders, seed: UInt64) {
        random = KesshoRandom(seed: "slider-walk|\(seed)")
        for (key, mode) in sliders.modes.entries where mode == .walk {
            guard let range = sliders.ranges[key], KesshoParameters.parameter(key)?.range != nil else { continue }
            let position = random.next()
            lanes.append(Lane(key: key, range: range, position: position, velocity: (random.next() - 0.5) * 0.02))
        }
    }

    var isEmpty: Bool { lanes.isEmpty }

    /// One 100 ms tick: every lane moves, and its value goes into `state`.
    mutating func step(_ state: inout KesshoState) {
        let speed = state.number("randomWalkSpeed") ?? 1
        for i in lanes.indices {
            var lane = lanes[i]
            lane.velocity += (random.next() - 0.5) * 0.01 * speed
            lane.velocity *= 0.98
            lane.velocity = min(max(lane.velocity, -0.05 * speed), 0.05 * speed)
            lane.position += lane.velocity
            if lane.position < 0 || lane.position > 1 {
                lane.position = min(max(lane.position, 0), 1)
                lane.velocity = -lane.velocity
            }
            let value = lane.range.min + lane.position * (lane.range.max - lane.range.min)
            state[lane.key] = .number(KesshoParameters.parameter(lane.key)?.quantize(value) ?? value)
            lanes[i] = lane
        }
    }
}
