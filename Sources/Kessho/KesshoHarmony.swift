import Foundation

/// A pad chord: MIDI notes ascending and their detuned frequencies.
public struct KesshoChord: Sendable, Equatable {
    public let notes: [Int]
    public let frequencies: [Double]
}

/// Chord voicing and the per-phrase harmony state machine, the web's.
public enum KesshoHarmony {
    /// Draw order matters (it is the web's): count, bass octave, pool shuffle, per-note octave
    /// displacement (only when spread > 0.5), then one detune draw per sorted note.
    public static func chord(rng: inout KesshoRandom, scale: KesshoScale, tension: Double,
                             voicingSpread: Double, detune: Double, root: Int) -> KesshoChord {
        let base = 36 + root
        let available = KesshoScales.notes(scale, root: root, in: base, base + 36)
        let noteCount = tension < 0.5 ? rng.int(3, 4) : rng.int(4, 5)
        let bass = base + 12 * rng.int(0, 1)
        var selected = [bass]
        if scale.intervals.contains(7) { selected.append(bass + 7) }

        var pool = rng.shuffle(available.filter { !selected.contains($0) })
        while selected.count < noteCount, let note = pool.popLast() {
            if voicingSpread > 0.5 && rng.next() < voicingSpread {
                let shifted = note + rng.pick([-12, 12])
                if shifted >= 36 && shifted <= 84 && !selected.contains(shifted) {
                    selected.append(shifted)
                } else if !selected.contains(note) {
                    selected.append(note)
                }
            } else if !selected.contains(note) {
                selected.append(note)
            }
        }
        let notes = Array(selected.sorted().prefix(6))
        let freqs = notes.map { m -> Double in
            let cents = rng.float(-detune, detune)
            return KesshoScales.frequency(midi: Double(m) + cents / 100)
        }
        return KesshoChord(notes: notes, frequencies: freqs)
    }
}

/// The harmony generator's running state: scale, chord and the phrase countdown to the next chord.
public struct KesshoHarmonyState: Sendable, Equatable {
    public private(set) var scale: KesshoScale
    public private(set) var chord: KesshoChord
    public private(set) var countdown: Int

    /// Initial state at Play: scale and first chord from createRng("<bucket>|E_ROOT") with the home root.
    public init(bucket: String, state: KesshoState) {
        var rng = KesshoRandom(seed: KesshoSeed.engineSeed(bucket: bucket))
        let p = KesshoHarmonySettings(state)
        // Manual mode with an unknown name falls back to the auto pick at init.
        scale = p.manualScale ?? KesshoScales.select(tension: p.tension, rng: &rng)
        chord = KesshoHarmony.chord(rng: &rng, scale: scale, tension: p.tension, voicingSpread: p.voicingSpread,
                                    detune: p.detune, root: p.homeRoot)
        countdown = p.phrasesPerChord
    }

    /// One phrase boundary. `root` is the effective (CoF-drifted) root; `forceChange` is a CoF
    /// drift, which sets the countdown to 1 first. Returns true when a new chord was made.
    @discardableResult
    public mutating func advance(phraseIndex: Int, bucket: String, state: KesshoState, stateJSON: String? = nil,
                                 root: Int, forceChange: Bool = false) -> Bool {
        if forceChange { countdown = 1 }
        let p = KesshoHarmonySettings(state)
        guard countdown <= 1 else {
            countdown -= 1
            return false
        }
        let json = stateJSON ?? KesshoStateJSON.stringify(state)
        var rng = KesshoRandom(seed: KesshoSeed.phraseSeed(bucket: bucket, stateJSON: json, phraseIndex: phraseIndex))
        if let manual = p.manualScale {
            scale = manual
        } else if !p.isManual {
            scale = KesshoScales.select(tension: p.tension, rng: &rng)
        }  // manual with an unknown name keeps the previous scale
        chord = KesshoHarmony.chord(rng: &rng, scale: scale, tension: p.tension, voicingSpread: p.voicingSpread,
                                    detune: p.detune, root: root)
        countdown = p.phrasesPerChord
        return true
    }
}

/// The state values the harmony reads, with defaults for anything missing.
struct KesshoHarmonySettings {
    let isManual: Bool
    let manualScale: KesshoScale?
    let tension, voicingSpread, detune: Double
    let homeRoot: Int
    let phrasesPerChord: Int

    init(_ s: KesshoState) {
        isManual = s.string("scaleMode") == "manual"
        manualScale = isManual ? KesshoScales.named(s.string("manualScale") ?? "") : nil
        tension = s.number("tension") ?? 0.3
        voicingSpread = s.number("voicingSpread") ?? 0.5
        detune = s.number("detune") ?? 8
        homeRoot = KesshoCircleOfFifths.pitchClass(s.number("rootNote") ?? 4)
        phrasesPerChord = KesshoPhrase.phrasesPerChord(chordRate: s.number("chordRate") ?? 32)
    }
}
