import EntrainAddressSpace
import EntrainCore
import EntrainEngine
import Foundation

/// SBaGen import, second layer: a parsed `.sbg` file played as SBaGen 1.4.5 plays it, as a session.
///
/// The time lines form a 24-hour ring of periods. Each change is a transition: by default a window
/// of -F seconds (60) centred on the change, limited by the neighbouring holds; with `->` the whole
/// interval. Per slot, a voice either glides (amplitude, carrier, beat linear over the window) or
/// fades to silence at the window's midpoint and the new one fades up (a different kind of voice,
/// a `<`/`>` silence, or a pitch change with a plain `-` fade).
/// Each slot becomes a piecewise-linear track; the tracks are merged into exact linear stages.
public enum SBGTimeline {
    struct State: Equatable {
        enum Kind: Equatable {
            case none, tone(mode: Int, waveform: Int), noise(String)
            /// The mix input and its effects; spinning noise (see SBGTimeline+Sounds for the fields' use).
            case mix, mixAM(pulse: Bool), mixPulse, mixSpin, mixBeat, spin(String)
        }
        var kind: Kind
        var carrier = 0.0, beat = 0.0, amplitude = 0.0
    }

    /// A slot's track: points in session seconds; two points at one time are a jump.
    typealias Track = [(time: Double, state: State)]

    public static func session(_ file: SBGFile, name: String, warnings: inout [SessionProblem], path: String) throws -> Session {
        func warn(_ line: Int, _ message: String) { warnings.append(SessionProblem(file: path, line: line, column: 1, message: message, isWarning: true)) }
        let lines = file.timeline
        guard !lines.isEmpty else {
            throw SessionLoadError(problems: [SessionProblem(file: path, line: 1, column: 1, message: "no time lines: nothing plays", isWarning: false)])
        }
        // Unroll the ring: U[j] is line j's time counted on from the first line.
        var unrolled = [lines[0].time]
        for j in 1..<lines.count {
            let step = (lines[j].time - lines[j - 1].time).truncatingRemainder(dividingBy: 86_400)
            unrolled.append(unrolled[j - 1] + (step < 0 ? step + 86_400 : step))
        }
        guard unrolled.last! - unrolled[0] < 86_400 else {
            throw SessionLoadError(problems: [SessionProblem(file: path, line: lines.last!.line, column: 1, message: "total time is greater than 24 hours", isWarning: false)])
        }
        // Where playback starts and how long it lasts.
        func at(_ t: Double) -> Double {
            unrolled[0] + { let d = (t - lines[0].time).truncatingRemainder(dividingBy: 86_400); return d < 0 ? d + 86_400 : d }()
        }
        let start: Double
        if let t = file.options.startTime {
            start = at(t)
        } else if !file.options.startAtFirst, let now = file.now {
            start = at(now)  // without -S SBaGen starts where the clock is: for NOW files, at NOW
        } else {
            if !file.options.startAtFirst { warn(lines[0].line, "SBaGen would start at the time of day; imported from the first time line (as with -S)") }
            start = unrolled[0]
        }
        let length: Double
        if let l = file.options.length {
            length = l
        } else if file.options.endAtLast {
            length = unrolled.last! - start
        } else {
            length = 3600
            warn(lines[0].line, "no -E or -L: SBaGen plays on forever; imported as 1 hour (SBaGen's own default for file output)")
        }
        guard length > 0 else {
            throw SessionLoadError(problems: [SessionProblem(file: path, line: lines[0].line, column: 1, message: "the session has no length", isWarning: false)])
        }
        // Periods over enough turns of the ring to cover the session.
        let turns = Int(((start - unrolled[0] + length) / 86_400).rounded(.up)) + 1
        var periods: [(time: Double, line: SBGFile.TimeLine)] = []
        for turn in 0..<turns { for (j, line) in lines.enumerated() { periods.append((unrolled[j] + Double(turn) * 86_400, line)) } }
        periods.append((unrolled[0] + Double(turns) * 86_400, lines[0]))

        let slotCount = periods.compactMap { file.toneSets[$0.line.toneSet]?.slots.count }.max() ?? 0
        func state(_ set: String, _ slot: Int) -> State {
            guard let voices = file.toneSets[set]?.slots, slot < voices.count, let voice = voices[slot] else { return State(kind: .none) }
            switch voice {
            case .binaural(let c, let b, let a, let w): return State(kind: .tone(mode: 0, waveform: waveformIndex(w)), carrier: c, beat: b, amplitude: a)
            case .monaural(let c, let b, let a): return State(kind: .tone(mode: 1, waveform: 0), carrier: c, beat: b, amplitude: a)
            case .isochronic(let c, let p, let a, let w): return State(kind: .tone(mode: 2, waveform: waveformIndex(w)), carrier: c, beat: p, amplitude: a)
            case .noise(let color, let a): return State(kind: .noise(color), amplitude: a)
            case .wave(_, let c, let b, let a): return State(kind: .tone(mode: 0, waveform: 0), carrier: c, beat: b, amplitude: a)
            case .unsupported, .bell: return State(kind: .none)  // bells ring at period starts: see bellStrikes
            default: return soundState(voice)
            }
        }
        for set in file.toneSets.values.sorted(by: { $0.line < $1.line }) {  // warnings in file order
            let name = set.name
            for case .unsupported(let token, let reason)? in set.slots { warn(set.line, "tone-set '\(name)': \(token) left out: \(reason)") }
            for case .wave(let n, _, _, _)? in set.slots {
                warn(set.line, "tone-set '\(name)': wave\(String(format: "%02d", n)) plays as a sine binaural pair (its beat envelope is not applied)")
            }
            for voice in set.slots.compactMap({ $0 }) {
                if let note = heldInRange(voice) { warn(set.line, "tone-set '\(name)': \(note)") }
            }
        }

        // Transition windows, one per change between consecutive periods.
        let fade = file.options.fadeSeconds
        var tracks = [Track](repeating: [], count: slotCount)
        for i in 0..<(periods.count - 1) {
            let (t, line) = periods[i]
            let next = periods[i + 1]
            let afterNext = i + 2 < periods.count ? periods[i + 2].time : next.time
            let length = next.time - t, nextLength = afterNext - next.time
            let nextSlides = next.line.slide
            var a: Double, b: Double
            if line.slide {
                a = t
                b = next.time + (length < fade && !nextSlides ? min(fade - length, nextLength / 2) : 0)
            } else {
                a = next.time - min(fade / 2, length / 2)
                b = next.time + (nextSlides ? 0 : min(fade / 2, nextLength / 2))
            }
            let mid = (a + b) / 2
            let fadeOut = line.slide ? "=" : line.fadeOut, fadeIn = line.slide ? "=" : next.line.fadeIn
            for k in 0..<slotCount {
                let from = state(line.toneSet, k), to = state(next.line.toneSet, k)
                // Hold: the period's own values from its start (or the end of the last window).
                if tracks[k].last.map({ $0.time < a }) ?? true { tracks[k].append((max(t, tracks[k].last?.time ?? t), from)) }
                tracks[k].append((a, from))
                let silence = fadeOut == ">" || fadeIn == "<"
                let sameKind = from.kind == to.kind
                let pitchMoves = from.carrier != to.carrier || from.beat != to.beat
                let isTone: Bool = { if case .tone = from.kind { return true }; return false }()
                if from.kind == .none && to.kind == .none { tracks[k].append((b, to)); continue }
                if !silence && (sameKind && !(isTone && pitchMoves && (fadeOut == "-" || fadeIn == "-")) || line.slide && (from.kind == .none || to.kind == .none)) {
                    // Glide (an empty side takes the other's voice at amplitude 0).
                    var start = from, end = to
                    if from.kind == .none { start = to; start.amplitude = 0; tracks[k][tracks[k].count - 1].state = start }
                    if to.kind == .none { end = from; end.amplitude = 0 }
                    tracks[k].append((b, end))
                } else {
                    // Fade the old voice to silence at the midpoint, then the new one up.
                    var out = from; out.amplitude = 0
                    var into = to; into.amplitude = 0
                    if from.kind == .none { out = into }
                    if to.kind == .none { into = out }
                    tracks[k] += [(mid, out), (mid, into), (b, to)]
                }
            }
        }
        let bells = bellStrikes(file, periods: periods, from: start, length: length)
        return merge(tracks, bells: bells, from: start, length: length, name: name, description: file.notes.joined(separator: " "),
                     warnings: &warnings, path: path)
    }

    /// What `ImportedTimeline.tone` will change about a voice to bring it into entrain's ranges.
    static func heldInRange(_ voice: SBGFile.Voice) -> String? {
        let carrier: Double, beat: Double, isochronic: Bool
        switch voice {
        case .binaural(let c, let b, _, _), .monaural(let c, let b, _): (carrier, beat, isochronic) = (c, b, false)
        case .isochronic(let c, let p, _, _): (carrier, beat, isochronic) = (c, p, true)
        default: return nil
        }
        var notes: [String] = []
        if carrier < 20 || carrier > 1500 { notes.append("carrier \(ControlDescriptor.format(carrier)) Hz held at \(carrier < 20 ? 20 : 1500) Hz") }
        if abs(beat) > 100 { notes.append("beat \(ControlDescriptor.format(beat)) Hz held at 100 Hz") }
        if isochronic && abs(beat) < 0.5 { notes.append("pulse \(ControlDescriptor.format(beat)) Hz raised to 0.5 Hz") }
        return notes.isEmpty ? nil : notes.joined(separator: ", ") + " (entrain's range)"
    }

    static func waveformIndex(_ w: SBGFile.Waveform) -> Int { ["sine": 0, "square": 1, "triangle": 2, "sawtooth": 3][w.rawValue] ?? 0 }

    /// A track's value at `t`, just before (`after` false) or just after a jump there. Tracks
    /// are in time order: a binary search finds the segment, so a day of one-second lines
    /// imports in linear-logarithmic time.
    static func value(_ track: Track, at t: Double, after: Bool) -> State {
        guard let first = track.first else { return State(kind: .none) }
        if t < first.time { return first.state }
        // The last point (from index 0) such that every later point up to it lies before t (at t when `after`).
        var low = 1, high = track.count
        while low < high {
            let mid = (low + high) / 2
            if track[mid].time < t || (after && track[mid].time == t) { low = mid + 1 } else { high = mid }
        }
        let i = low - 1
        guard i + 1 < track.count else { return track[i].state }
        let (t0, s0) = track[i], (t1, s1) = track[i + 1]
        guard t1 > t0, s0.kind == s1.kind else { return t1 <= t ? s1 : s0 }
        let x = (t - t0) / (t1 - t0)
        var s = s0
        s.carrier += (s1.carrier - s0.carrier) * x
        s.beat += (s1.beat - s0.beat) * x
        s.amplitude += (s1.amplitude - s0.amplitude) * x
        return s
    }

    /// Slots → entrain's voices and noise bed, sampled at every breakpoint into linear stages.
    static func merge(_ tracks: [Track], bells: [BellStrike] = [], from start: Double, length: Double, name: String, description: String,
                      warnings: inout [SessionProblem], path: String) -> Session {
        let end = start + length
        var voiceOfSlot: [Int: Int] = [:]
        for (k, track) in tracks.enumerated() where track.contains(where: { if case .tone = $0.state.kind { return true }; return false }) {
            if voiceOfSlot.count < EntrainmentParameters.voiceCount { voiceOfSlot[k] = voiceOfSlot.count } else {
                warnings.append(SessionProblem(file: path, line: 1, column: 1, message: "more than \(EntrainmentParameters.voiceCount) tone slots: slot \(k + 1) left out", isWarning: true))
            }
        }
        if tracks.contains(where: { $0.contains { if case .tone = $0.state.kind { return $0.state.beat < 0 }; return false } }) {
            warnings.append(SessionProblem(file: path, line: 1, column: 1, message: "negative beats (right ear higher) play with the left ear higher", isWarning: true))
        }
        let present = SoundKinds(tracks, bells: bells)
        func changes(at t: Double, after: Bool) -> ImportedTimeline.Changes {
            var out: ImportedTimeline.Changes = []
            var noise = 0.0
            for (k, track) in tracks.enumerated() {
                let s = value(track, at: t, after: after)
                if case .noise = s.kind { noise += s.amplitude / 100 }
                guard let v = voiceOfSlot[k] else { continue }
                let p = EntrainmentParameters.prefix(voice: v)
                if case .tone(let mode, let waveform) = s.kind {
                    out += [("\(p)/mode", Double(mode)), ("\(p)/waveform", Double(waveform))]
                    out += ImportedTimeline.tone(voice: v, mode: mode, carrier: s.carrier, beat: s.beat, level: s.amplitude / 100)
                } else {
                    out.append(("\(p)/level", 0))
                }
            }
            out.append(("/entrain/noise/level", min(1, noise)))
            return out + soundChanges(tracks, present: present, bells: bells, at: t, after: after)
        }
        var times = Set([start, end])
        for track in tracks { for point in track where point.time > start && point.time < end { times.insert(point.time) } }
        for bell in bells { times.insert(bell.time) }
        let ordered = times.sorted()
        var setup: [(address: String, value: Double)] = [("/entrain/volume", 1)]
        for v in voiceOfSlot.values { setup.append(("\(EntrainmentParameters.prefix(voice: v))/convention", 1)) }
        if let color = tracks.lazy.flatMap({ $0 }).compactMap({ if case .noise(let c) = $0.state.kind { return c }; return nil }).first {
            setup.append(("/entrain/noise", Double(["white", "pink", "brown"].firstIndex(of: color) ?? 1)))
        }
        let stages = ImportedTimeline.stages(breakpoints: ordered, setup: setup, name: clock, values: changes)
        return Session(name: name, description: description, stages: stages)
    }

    static func clock(_ t: Double) -> String {
        let s = Int(t.rounded()) % 86_400
        return String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }
}
