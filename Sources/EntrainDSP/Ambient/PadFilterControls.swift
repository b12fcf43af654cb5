/// The pad's three filters' controls: the main filter's type, cutoff and Q, the 250 Hz low
/// shelf's gain (warmth) and the 3 kHz peak's gain (presence). Cutoff, Q and gains glide with
/// τ 50 ms, as every Kessho change does; the coefficients follow every `step` frames while
/// anything moves (Web Audio would recompute them per frame). A voice's two channels share them,
/// and so do the ensemble's six voices, which always receive the same settings.
public struct PadFilterControls {
    @usableFromInline static var step: Int { 16 }
    public let sampleRate: Double
    @usableFromInline let factor: Double
    @usableFromInline var kind = WebAudioBiquad.Kind.lowpass, appliedKind = WebAudioBiquad.Kind.lowpass
    /// Cutoff (Hz), Q, shelf dB, peak dB: in force, and where they glide to.
    @usableFromInline var values = SIMD4<Double>(), targets = SIMD4<Double>()
    @usableFromInline var countdown = 0
    // The shelf and peak gains their coefficients were last computed for (they rarely move,
    // while the cutoff glides all the time).
    @usableFromInline var shelfDecibels = Double.nan, peakDecibels = Double.nan
    /// The coefficients in force (their filter state is not used).
    public private(set) var filter = WebAudioBiquad(), shelf = WebAudioBiquad(), peak = WebAudioBiquad()

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        factor = TargetEnvelope.factor(timeConstant: 0.05, sampleRate: sampleRate / Double(Self.step))
    }

    /// Main filter cutoff now in effect (Hz).
    public var cutoff: Double { values[0] }

    /// Main filter type (at once), cutoff (Hz) and Q (Web Audio meaning), both gliding.
    public mutating func setFilter(_ kind: WebAudioBiquad.Kind, cutoff: Double, q: Double) {
        if kind != self.kind { self.kind = kind; countdown = 0 }
        targets[0] = cutoff
        targets[1] = q
    }

    /// Low-shelf gain 8·warmth dB and peak gain 12·(presence − 0.5) dB, gliding.
    public mutating func setTone(warmth: Double, presence: Double) {
        targets[2] = 8 * warmth
        targets[3] = 12 * (presence - 0.5)
    }

    /// Every value at its target now, and the coefficients for them.
    public mutating func settle() {
        values = targets
        apply()
    }

    /// One frame; true when the coefficients changed.
    @inlinable @inline(__always)
    public mutating func tick() -> Bool {
        countdown -= 1
        return countdown <= 0 ? glide() : false
    }

    /// One glide step and fresh coefficients (every `step` frames).
    @usableFromInline
    mutating func glide() -> Bool {
        countdown = Self.step
        let distance = values - targets
        if distance == .zero && kind == appliedKind { return false }
        let next = targets + distance * factor
        // Snap when the remaining move is inaudible, so coefficients stop being recomputed.
        let close = abs(next[0] - targets[0]) < 1e-3 && abs(next[1] - targets[1]) < 1e-5
            && abs(next[2] - targets[2]) < 1e-4 && abs(next[3] - targets[3]) < 1e-4
        values = close ? targets : next
        apply()
        return true
    }

    @usableFromInline
    mutating func apply() {
        appliedKind = kind
        filter = WebAudioBiquad(kind, frequency: values[0], q: values[1], sampleRate: sampleRate)
        if values[2] != shelfDecibels {
            shelfDecibels = values[2]
            shelf = WebAudioBiquad(.lowshelf, frequency: 250, q: 1, gainDecibels: shelfDecibels, sampleRate: sampleRate)
        }
        if values[3] != peakDecibels {
            peakDecibels = values[3]
            peak = WebAudioBiquad(.peaking, frequency: 3000, q: 0.8, gainDecibels: peakDecibels, sampleRate: sampleRate)
        }
    }
}
