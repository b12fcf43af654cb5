import EntrainDSP
import Kessho

/// Turns a melody note that fired (pitch, velocity) into the lead note the plugin plays, as the
/// web's lead does per note: the A↔B preset morph at a position drawn in the morph's
/// sample-and-hold range (or walked, with `lead1MorphAuto`), the algorithm snapped or A's, the
/// custom envelope, the hold, the level, the glide's static detune and the delay's settings.
/// What the web draws from Math.random comes from `side`, a stream seeded by the run's seed.
struct KesshoLeadNote {
    /// The 100 ms momentum walk of a morph position (lead1MorphAuto / lead2MorphAuto).
    struct MorphWalk {
        var position: Double, velocity = 0.0
        var ticks: Int64 = 0

        mutating func advance(toTick tick: Int64, phrases: Double, side: inout Mulberry32) {
            while ticks < tick {
                ticks += 1
                velocity += (side.next() - 0.5) * 0.01 / phrases
                velocity *= 0.98
                velocity = min(max(velocity, -0.05 / phrases), 0.05 / phrases)
                position += velocity
                if position < 0 { position = 0; velocity = -velocity }
                if position > 1 { position = 1; velocity = -velocity }
            }
        }
    }

    var side: Mulberry32
    var walks: [MorphWalk]
    let sampleRate: Double

    init(seed: UInt64, sampleRate: Double) {
        side = Mulberry32(seed: UInt32(truncatingIfNeeded: seed ^ (seed >> 32) ^ 0x1EAD))
        self.sampleRate = sampleRate
        walks = []
        walks = [MorphWalk(position: side.next()), MorphWalk(position: side.next())]
    }

    /// A value: drawn in its sample-and-hold range if it has one, else the state's.
    mutating func value(_ key: String, _ s: KesshoState, _ sliders: KesshoSliders) -> Double {
        let single = s.number(key) ?? KesshoParameters.parameter(key)?.defaultValue.number ?? 0
        guard let r = sliders.range(key, in: .sampleHold) else { return single }
        return r.min + side.next() * (r.max - r.min)
    }

    /// The note for lead `lead` (1 or 2) at `frame`, or nil when its velocity is below 0.001.
    mutating func note(lead: Int, midi: Int, velocity noteVelocity: Double, frame: Int64, state s: KesshoState,
                       sliders: KesshoSliders) -> FMNote? {
        let n = lead == 2 ? 2 : 1
        let morphKey = "lead\(n)Morph"
        let range = sliders.range(morphKey, in: .sampleHold)
            ?? KesshoDualRange(min: s.number(morphKey) ?? 0, max: s.number(morphKey) ?? 0)
        let t: Double
        if s.bool("lead\(n)MorphAuto") == true {
            let phrases = min(max(s.number("lead\(n)MorphSpeed") ?? 8, 1), 32)
            walks[n - 1].advance(toTick: frame / Int64(0.1 * sampleRate), phrases: phrases, side: &side)
            t = range.min + walks[n - 1].position * (range.max - range.min)
        } else {
            t = range.min + side.next() * (range.max - range.min)
        }
        let a = KesshoLeadPresets.patch(id: s.string(n == 1 ? "lead1PresetA" : "lead2PresetC") ?? "soft_rhodes")
        let b = KesshoLeadPresets.patch(id: s.string(n == 1 ? "lead1PresetB" : "lead2PresetD") ?? "gamelan")
        var patch = FMPatch.morph(a, b, min(max(t, 0), 1))
        if s.string("lead\(n)AlgorithmMode") == "presetA" { patch.algorithm = a.algorithm }
        // The custom envelope and the hold are lead 1's keys, for both leads (as on the web).
        if s.bool("lead1UseCustomAdsr") == true {
            patch.attack = s.number("lead1Attack") ?? 0.01
            patch.decay = s.number("lead1Decay") ?? 0.8
            patch.sustain = s.number("lead1Sustain") ?? 0.3
            patch.release = s.number("lead1Release") ?? 2
        }
        patch.hold = s.number("lead1Hold") ?? 0.5
        let v = noteVelocity * (s.number("lead\(n)Level") ?? (n == 1 ? 0.8 : 0.6))
        guard v >= 0.001 else { return nil }
        var note = FMNote()
        note.patch = patch
        note.velocity = v
        note.noiseSeed = UInt64(bitPattern: frame) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(n)
        note.delayMilliseconds = value("leadDelayTime", s, sliders)
        note.delayFeedback = value("leadDelayFeedback", s, sliders)
        note.delayMix = value("leadDelayMix", s, sliders)
        // Drawn per note as the web does, though neither it nor we apply vibrato.
        _ = value("leadVibratoDepth", s, sliders)
        _ = value("leadVibratoRate", s, sliders)
        let glide = value("leadGlide", s, sliders)
        var frequency = KesshoScales.frequency(midi: Double(midi))
        if glide > 0.01 { frequency *= 1 + (side.next() - 0.5) * 0.2 * glide }
        note.frequency = frequency
        return note
    }
}
