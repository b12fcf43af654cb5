import EntrainCore
import EntrainEngine
import Foundation

/// The `.sbg` voices beyond tones and noise beds: the mix input and SBaGenX's effects on it,
/// spinning noise and bells, turned into the /mix, /spin and /bell addresses. Their tracks glide
/// like SBaGen's (same kind: values slide over the transition; otherwise fade through silence);
/// a bell rings once when playback enters a period whose tone-set holds it.
extension SBGTimeline {
    /// A period's bell: where it rings, its pitch and level (percent).
    struct BellStrike { let time: Double; let frequency: Double; let amplitude: Double }

    /// Which of these kinds a file uses: only those get addresses (a file without `mix/` leaves
    /// the mix level to the command line, as SBaGen plays `-m` at 100 % then).
    struct SoundKinds {
        var mix = false, am = false, pulse = false, mixSpin = false, beat = false, spin = false, bell = false
        init(_ tracks: [Track], bells: [BellStrike]) {
            for track in tracks {
                for point in track {
                    switch point.state.kind {
                    case .mix: mix = true
                    case .mixAM: am = true
                    case .mixPulse: pulse = true
                    case .mixSpin: mixSpin = true
                    case .mixBeat: beat = true
                    case .spin: spin = true
                    default: break
                    }
                }
            }
            bell = !bells.isEmpty
        }
    }

    /// A slot's state for these voices: `beat` holds a rate, `carrier` a spin width (µs),
    /// `amplitude` a level or intensity in percent (mixam: its depth, 100 − floor).
    static func soundState(_ voice: SBGFile.Voice) -> State {
        switch voice {
        case .mix(let a): return State(kind: .mix, amplitude: a)
        case .mixAM(let rate, let floor, let pulse): return State(kind: .mixAM(pulse: pulse), beat: rate ?? -1, amplitude: (1 - floor) * 100)
        case .mixPulse(let rate, let i): return State(kind: .mixPulse, beat: rate, amplitude: i)
        case .mixSpin(let w, let rate, let i): return State(kind: .mixSpin, carrier: w, beat: rate, amplitude: i)
        case .mixBeat(let b, let i): return State(kind: .mixBeat, beat: b, amplitude: i)
        case .spin(let color, let w, let rate, let a): return State(kind: .spin(color), carrier: w, beat: rate, amplitude: a)
        default: return State(kind: .none)
        }
    }

    /// SBaGenX's spin: microseconds scaled against its 8-bit spin table at 44.1 kHz and boosted
    /// 1.5×, a pan depth s (at most 1: 300 µs is 0.155), played with gains 1 − s and 1 + s. Our
    /// width gives the same level difference between the ears at the extremes: the far ear at
    /// (1 − s)/(1 + s) of the near one, which our quarter-cosine law reaches at (2/π)·acos of it.
    static func spinWidth(microseconds: Double) -> Double {
        let s = min(1, microseconds * 1e-6 * 44_100 * 1.5 / 128)
        return acos((1 - s) / (1 + s)) * 2 / .pi
    }

    /// Every bell of every period that starts inside the session, at its line's time.
    static func bellStrikes(_ file: SBGFile, periods: [(time: Double, line: SBGFile.TimeLine)], from start: Double,
                            length: Double) -> [BellStrike] {
        var strikes: [BellStrike] = []
        for period in periods where period.time >= start && period.time < start + length {
            for case .bell(let f, let a)? in file.toneSets[period.line.toneSet]?.slots ?? [] {
                strikes.append(BellStrike(time: period.time, frequency: f, amplitude: a))
                break  // one bell voice: the first of the set
            }
        }
        return strikes
    }

    /// The changes for these voices at `t` (just before a jump there, or just after).
    static func soundChanges(_ tracks: [Track], present: SoundKinds, bells: [BellStrike], at t: Double, after: Bool) -> ImportedTimeline.Changes {
        var mix = 0.0, spinLevel = 0.0
        var am: State?, pulse: State?, mixSpin: State?, beat: State?, spin: State?, toneBeat: Double?
        for track in tracks {
            let s = value(track, at: t, after: after)
            switch s.kind {
            case .mix: mix += s.amplitude / 100
            case .mixAM: if am == nil || am!.amplitude == 0 { am = s }
            case .mixPulse: if pulse == nil || pulse!.amplitude == 0 { pulse = s }
            case .mixSpin: if mixSpin == nil || mixSpin!.amplitude == 0 { mixSpin = s }
            case .mixBeat: if beat == nil || beat!.amplitude == 0 { beat = s }
            case .spin:
                spinLevel += s.amplitude / 100
                if spin == nil || spin!.amplitude == 0 { spin = s }
            case .tone: if toneBeat == nil && s.amplitude > 0 { toneBeat = abs(s.beat) }
            default: break
            }
        }
        var out: ImportedTimeline.Changes = []
        func rate(_ r: Double, _ range: ClosedRange<Double>) -> Double { min(range.upperBound, max(range.lowerBound, r)) }
        if present.mix { out.append(("/mix/level", min(1, mix))) }
        if present.am {
            let pulseShape: Bool = { if case .mixAM(let p)? = am?.kind { return p }; return false }()
            let r = am.map { $0.beat >= 0 ? $0.beat : toneBeat ?? 10 } ?? 10  // mixam:beat follows the first tone's beat
            out += [("/mix/am/depth", (am?.amplitude ?? 0) / 100), ("/mix/am/rate", rate(r, 0.1...100)),
                    ("/mix/am/shape", Double(pulseShape ? MixParameters.AMShape.pulse.rawValue : MixParameters.AMShape.cosine.rawValue))]
        }
        if present.pulse {
            out += [("/mix/pulse/depth", (pulse?.amplitude ?? 0) / 100), ("/mix/pulse/rate", rate(abs(pulse?.beat ?? 10), 0.5...100))]
        }
        if present.mixSpin {
            let width = mixSpin.map { spinWidth(microseconds: $0.carrier) * $0.amplitude / 100 } ?? 0
            out += [("/mix/spin/width", min(1, width)), ("/mix/spin/rate", rate(mixSpin?.beat ?? 1, -100...100))]
        }
        if present.beat {
            out += [("/mix/beat/depth", (beat?.amplitude ?? 0) / 100), ("/mix/beat/rate", rate(beat?.beat ?? 6, -100...100))]
        }
        if present.spin {
            let color: Double = { if case .spin(let c)? = spin?.kind { return Double(["white", "pink", "brown"].firstIndex(of: c) ?? 1) }; return 1 }()
            out += [("/spin/level", min(1, spinLevel)), ("/spin/noise", color),
                    ("/spin/width", spin.map { spinWidth(microseconds: $0.carrier) } ?? 0.5), ("/spin/rate", rate(spin?.beat ?? 1, -100...100))]
        }
        if present.bell {
            // The latest bell at or before t sets pitch and level; the strike is on only just after its time.
            let last = bells.last { $0.time < t || ($0.time == t && after) } ?? bells[0]
            let strikes = after && bells.contains { $0.time == t }
            out += [("/bell/frequency", min(8000, max(20, last.frequency))), ("/bell/level", min(1, last.amplitude / 100)),
                    ("/bell/strike", strikes ? 1 : 0)]
        }
        return out
    }
}
