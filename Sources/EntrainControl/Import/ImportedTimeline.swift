import EntrainEngine
import Foundation

/// What the SBaGen and Gnaural importers share. Both reduce a file to parameters that move
/// piecewise-linearly between breakpoints (jumping only at some of them); sampling them at every
/// breakpoint gives linear stages that reproduce them exactly, plus a 1 ms switch stage wherever
/// a value jumps.
enum ImportedTimeline {
    typealias Changes = [(address: String, value: Double)]

    /// `breakpoints`: sorted times from the session's start to its end. `values(t, after)`: the
    /// parameters just before a breakpoint (after = false) or just after it. `setup` goes into the
    /// first stage; `name` labels a stage by the time it reaches.
    static func stages(breakpoints: [Double], setup: Changes, name: (Double) -> String,
                       values: (Double, Bool) -> Changes) -> [Session.Stage] {
        guard let start = breakpoints.first, breakpoints.count > 1 else { return [] }
        let first = min(0.001, (breakpoints[1] - start) / 2)
        var stages = [Session.Stage(name: "start", duration: first, transition: .crossfade, fade: 0,
                                    changes: setup + values(start, true), pluginBlocks: [])]
        var elapsed = start + first
        for (i, t) in breakpoints.enumerated().dropFirst() {
            guard t > elapsed else { continue }  // closer than a switch stage to the last one
            let before = values(t, false)
            stages.append(Session.Stage(name: name(t), duration: t - elapsed, transition: .linear, fade: 0, changes: before, pluginBlocks: []))
            elapsed = t
            let after = values(t, true)
            if i < breakpoints.count - 1, zip(before, after).contains(where: { $0.value != $1.value }) {
                stages.append(Session.Stage(name: "change at \(name(t))", duration: 0.001, transition: .crossfade, fade: 0,
                                            changes: after, pluginBlocks: []))
                elapsed += 0.001
            }
        }
        return stages
    }

    /// One tone voice's values brought into entrain's ranges (the sources allow more): carrier
    /// 20–1500 Hz; beat at most 100 Hz, at least 0.5 for isochronic pulses, and otherwise below twice
    /// the carrier so the lower tone of a centred pair stays above 0 Hz.
    static func tone(voice: Int, mode: Int, carrier: Double, beat: Double, level: Double) -> Changes {
        let p = EntrainmentParameters.prefix(voice: voice)
        let c = min(1500, max(20, carrier))
        var b = min(100, abs(beat))
        b = mode == EntrainmentParameters.Mode.isochronic.rawValue ? max(0.5, b) : min(b, 2 * c - 0.02)
        return [("\(p)/carrier", c), ("\(p)/beat", b), ("\(p)/level", min(1, max(0, level)))]
    }
}
