import Foundation

/// Turns a checked `AHAPPattern` into per-tick intensity and sharpness.
///
/// Each event contributes its envelope (`AHAPEnvelope`); where events overlap the loudest one
/// wins (max, not sum: two taps at once should not feel twice as strong, and the result stays in
/// 0…1 without a limiter). A tick's sharpness is that of its loudest active event, 0.5 where no
/// event is active. Then the controls act as Core Haptics combines them: intensity ×
/// HapticIntensityControl, sharpness + HapticSharpnessControl, both clamped to 0…1.
/// The pattern lasts until the last event or curve control point ends, whichever is later.
enum AHAPRenderer {
    static func render(_ pattern: AHAPPattern) -> (intensity: [Float], sharpness: [Float]) {
        // Controls are needed to shape the envelopes, so fill them over the longest possible span.
        let reach = pattern.events.map { e in
            AHAPEnvelope.tick(e.time + (e.kind == .transient ? AHAPEnvelope.longestTransient : e.duration)) + 1
        }.max() ?? 0
        let span = max(reach, AHAPControlTrack.end(of: pattern))
        func control(_ id: ControlID) -> [Double] { AHAPControlTrack(id, pattern: pattern).values(count: span) }
        let attack = control(.hapticAttackTimeControl), decay = control(.hapticDecayTimeControl)
        let release = control(.hapticReleaseTimeControl)
        func at(_ values: [Double], _ tick: Int) -> Double { values.isEmpty ? 0 : values[min(max(tick, 0), values.count - 1)] }

        // Time controls act when their phase begins: attack and decay at the start, release at the end.
        let envelopes = pattern.events.map { e in
            let start = AHAPEnvelope.tick(e.time)
            return AHAPEnvelope(e, attackShift: at(attack, start), decayShift: at(decay, start),
                                releaseShift: at(release, AHAPEnvelope.tick(e.time + e.duration)))
        }
        let count = max(envelopes.map(\.endTick).max() ?? 0, AHAPControlTrack.end(of: pattern))

        // -1 marks "no event here", so an active event at level 0 (an attack's first tick) still
        // sets the sharpness.
        var loudest = [Double](repeating: -1, count: count)
        var sharp = [Double](repeating: 0.5, count: count)
        for envelope in envelopes {
            for n in envelope.startTick..<envelope.endTick {
                let level = envelope.level(n - envelope.startTick)
                if level > loudest[n] { loudest[n] = level; sharp[n] = envelope.sharpness }
            }
        }
        let gain = control(.hapticIntensityControl), shift = control(.hapticSharpnessControl)
        func unit(_ x: Double) -> Float { Float(min(max(x, 0), 1)) }
        let intensity = (0..<count).map { unit(max(loudest[$0], 0) * gain[$0]) }
        let sharpness = (0..<count).map { unit(sharp[$0] + shift[$0]) }
        return (intensity, sharpness)
    }
}
