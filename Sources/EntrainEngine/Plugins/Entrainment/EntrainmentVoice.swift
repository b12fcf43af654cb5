import EntrainDSP

/// One entrainment voice: a carrier and a beat, heard binaurally, monaurally or as isochronic pulses.
/// Oscillators `left` and `right` make the two tones, `pulse` the isochronic carrier; every
/// parameter glides per sample and every switch (mode, waveform) is a crossfade.
struct EntrainmentVoice {
    typealias Field = EntrainmentParameters.VoiceField

    var mode: ChoiceCrossfade
    var waveform: ChoiceCrossfade
    var carrier: Glide
    var beat: Glide
    var level: Glide
    var duty: Glide
    var edge: Glide
    var centered: Bool
    var left = Oscillator()
    var right = Oscillator()
    var pulse = Oscillator()
    var gate = Oscillator()  // only its phase is used

    init(values: (Field) -> Double) {
        mode = ChoiceCrossfade(selected: Int(values(.mode)))
        waveform = ChoiceCrossfade(selected: Int(values(.waveform)))
        carrier = Glide(values(.carrier))
        beat = Glide(values(.beat))
        level = Glide(values(.level))
        duty = Glide(values(.duty))
        edge = Glide(values(.edge))
        centered = Int(values(.convention)) == EntrainmentParameters.Convention.centered.rawValue
    }

    /// A voice is silent when its level is 0 and not moving; a silent voice costs nothing per frame.
    @inline(__always)
    var isActive: Bool { level.value != 0 || level.isMoving }

    mutating func set(_ field: Field, to value: Double, glideFrames: Int, exponential: Bool) {
        // On a silent voice there is nothing to hear gliding: changes land at once.
        let frames = isActive || field == .level ? glideFrames : 0
        switch field {
        case .mode: mode.select(Int(value), frames: frames)
        case .waveform: waveform.select(Int(value), frames: frames)
        case .carrier: carrier.move(to: value, frames: frames, exponential: exponential)
        case .beat: beat.move(to: value, frames: frames, exponential: exponential)
        case .level: level.move(to: value, frames: frames, exponential: exponential)
        case .duty: duty.move(to: value, frames: frames)
        case .edge: edge.move(to: value, frames: frames)
        case .convention: centered = Int(value) == EntrainmentParameters.Convention.centered.rawValue
        }
    }

    /// When a voice falls silent, finish every glide so it wakes up where it was headed.
    mutating func settle() {
        mode.settle()
        waveform.settle()
        carrier.reset(to: carrier.target)
        beat.reset(to: beat.target)
        duty.reset(to: duty.target)
        edge.reset(to: edge.target)
    }

    /// Add this voice's frames `range` to `outL`/`outR`.
    mutating func render(_ outL: UnsafeMutablePointer<Float>, _ outR: UnsafeMutablePointer<Float>,
                         _ range: Range<Int>, bank: WavetableBank, inverseRate: Double) {
        // Work on a local copy: stores to the output could alias `self`, which would force the
        // compiler to reload every field each frame.
        var voice = self
        defer { self = voice }
        if voice.isSteady {
            voice.renderSteady(outL, outR, range, bank: bank, inverseRate: inverseRate)
            return
        }
        for i in range {
            guard voice.isActive else { return }
            let (l, r) = voice.next(bank: bank, inverseRate: inverseRate)
            outL[i] += l
            outR[i] += r
        }
    }

    /// Nothing moving: every glide and crossfade at rest, the voice audible.
    @inline(__always)
    var isSteady: Bool {
        level.value != 0 && !level.isMoving && !carrier.isMoving && !beat.isMoving && !duty.isMoving
            && !edge.isMoving && !mode.isMoving && !waveform.isMoving
    }

    /// The steady state, with the per-frame bookkeeping hoisted out of the loop. It performs the
    /// same arithmetic as `next` frame by frame, so its output is identical (the block-size test
    /// and the live-vs-offline test would show any difference).
    @inline(__always)
    mutating func renderSteady(_ outL: UnsafeMutablePointer<Float>, _ outR: UnsafeMutablePointer<Float>,
                               _ range: Range<Int>, bank: WavetableBank, inverseRate: Double) {
        let c = carrier.value, b = beat.value, gain = Float(level.value)
        let leftFrequency = centered ? c + b * 0.5 : c
        let rightFrequency = centered ? c - b * 0.5 : c + b
        let shape = Waveform(rawValue: waveform.selected) ?? .sine
        switch mode.selected {
        case EntrainmentParameters.Mode.binaural.rawValue:
            for i in range {
                let l = left.value(shape, frequency: leftFrequency, bank: bank)
                let r = right.value(shape, frequency: rightFrequency, bank: bank)
                left.advance(frequency: leftFrequency, inverseRate: inverseRate)
                right.advance(frequency: rightFrequency, inverseRate: inverseRate)
                gate.advance(frequency: b, inverseRate: inverseRate)
                outL[i] += l * gain
                outR[i] += r * gain
            }
        case EntrainmentParameters.Mode.monaural.rawValue:
            for i in range {
                let sum = 0.5 * (left.value(shape, frequency: leftFrequency, bank: bank)
                    + right.value(shape, frequency: rightFrequency, bank: bank))
                left.advance(frequency: leftFrequency, inverseRate: inverseRate)
                right.advance(frequency: rightFrequency, inverseRate: inverseRate)
                gate.advance(frequency: b, inverseRate: inverseRate)
                outL[i] += sum * gain
                outR[i] += sum * gain
            }
        default:
            let dutyNow = duty.value, edgeNow = edge.value
            for i in range {
                let g = IsochronicGate.value(phase: gate.phase, duty: dutyNow, edge: edgeNow)
                let t = g == 0 ? 0 : g * pulse.value(shape, frequency: c, bank: bank)
                left.advance(frequency: leftFrequency, inverseRate: inverseRate)
                right.advance(frequency: rightFrequency, inverseRate: inverseRate)
                pulse.advance(frequency: c, inverseRate: inverseRate)
                gate.advance(frequency: b, inverseRate: inverseRate)
                outL[i] += t * gain
                outR[i] += t * gain
            }
        }
    }

    /// One stereo frame of an active voice.
    @inline(__always)
    mutating func next(bank: WavetableBank, inverseRate: Double) -> (Float, Float) {
        mode.advance()
        waveform.advance()
        let c = carrier.next()
        let b = beat.next()
        let gain = Float(level.next())
        let dutyNow = duty.next()
        let edgeNow = edge.next()
        let leftFrequency = centered ? c + b * 0.5 : c
        let rightFrequency = centered ? c - b * 0.5 : c + b

        var l: Float = 0
        var r: Float = 0
        if mode.isMoving {
            let binaural = mode.current[0], monaural = mode.current[1], isochronic = mode.current[2]
            if binaural != 0 || monaural != 0 {
                let a = Self.read(&left, leftFrequency, waveform, bank)
                let z = Self.read(&right, rightFrequency, waveform, bank)
                let sum = monaural * 0.5 * (a + z)
                l = binaural * a + sum
                r = binaural * z + sum
            }
            if isochronic != 0 {
                let t = isochronic * IsochronicGate.value(phase: gate.phase, duty: dutyNow, edge: edgeNow)
                    * Self.read(&pulse, c, waveform, bank)
                l += t
                r += t
            }
        } else {
            // Steady state: one mode, weights exactly 1 and 0, so the same numbers with less work.
            switch mode.selected {
            case 0:
                l = Self.read(&left, leftFrequency, waveform, bank)
                r = Self.read(&right, rightFrequency, waveform, bank)
            case 1:
                let sum = 0.5 * (Self.read(&left, leftFrequency, waveform, bank) + Self.read(&right, rightFrequency, waveform, bank))
                l = sum
                r = sum
            default:
                let g = IsochronicGate.value(phase: gate.phase, duty: dutyNow, edge: edgeNow)
                l = g == 0 ? 0 : g * Self.read(&pulse, c, waveform, bank)
                r = l
            }
        }
        left.advance(frequency: leftFrequency, inverseRate: inverseRate)
        right.advance(frequency: rightFrequency, inverseRate: inverseRate)
        // The pulse carrier only matters while isochronic is heard; resting otherwise, it
        // resumes from where it was, which a fade-in from silence cannot reveal. The gate always
        // runs: its phase is the voice's modulation phase, which the LED strobe follows.
        if mode.isMoving || mode.selected == EntrainmentParameters.Mode.isochronic.rawValue {
            pulse.advance(frequency: c, inverseRate: inverseRate)
        }
        gate.advance(frequency: b, inverseRate: inverseRate)
        if !isActive { settle() }
        return (l * gain, r * gain)
    }

    /// The oscillator's value under the current waveform (or crossfade of waveforms).
    @inline(__always)
    static func read(_ oscillator: inout Oscillator, _ frequency: Double, _ waveform: ChoiceCrossfade,
                     _ bank: WavetableBank) -> Float {
        if !waveform.isMoving {
            return oscillator.value(Waveform(rawValue: waveform.selected) ?? .sine, frequency: frequency, bank: bank)
        }
        var value: Float = 0
        for w in 0..<ChoiceCrossfade.capacity where waveform.current[w] != 0 {
            value += waveform.current[w] * oscillator.value(Waveform(rawValue: w)!, frequency: frequency, bank: bank)
        }
        return value
    }
}
