import EntrainAddressSpace
import EntrainAmbient

extension AmbientFamily {
    /// Each drum lane's evolve settings: the conductor's, like the tempo source (not Kessho keys,
    /// never hashed into the preset state).
    static let evolveDescriptors: [ControlDescriptor] = (1...4).flatMap { n in
        let note = "rendered: drum lane \(n)'s evolve; not part of the preset state"
        return [
            ControlDescriptor(prefix + DrumEvolveSetting.key(lane: n, ""), .toggle, default: .bool(false), glide: 0,
                              readOnly: false, note: note,
                              "drum lane \(n) evolves: at bar boundaries of the drum clock its velocities, swing, step "
                                  + "chances, ghost notes, hits (±1), rotation and pitch drift, pulled back toward the lane's "
                                  + "sliders; drawn from a seeded stream (same preset, seed and start: same hits)"),
            ControlDescriptor(prefix + DrumEvolveSetting.key(lane: n, "Every"),
                              .number(range: 1...64, step: 1, curve: .linear, integer: true), default: .number(4), glide: 0,
                              readOnly: false, note: note, "drum lane \(n) evolves every this many bars (4 beats)"),
            ControlDescriptor(prefix + DrumEvolveSetting.key(lane: n, "Intensity"),
                              .number(range: 0...1, step: 0.01, curve: .linear, integer: false), default: .number(0.5),
                              glide: 0, readOnly: false, note: note,
                              "how far drum lane \(n) drifts each evolve step (0: only the pull back home)"),
        ]
    }
}
