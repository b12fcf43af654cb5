import EntrainDSP

/// One entrainment voice: a carrier and a beat, heard binaurally, monaurally or as isochronic pulses.
/// Oscillator `left` and `right` make the two tones, `pulse` the isochronic carrier; every
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

    @inlinable
    mutating func set(_ field: Field, to value: Double, glideFrames: Int, exponential: Bool) {
        switch field {
        case .mode: mode.select(Int(value), frames: glideFrames)
        case .waveform: waveform.select(Int(value), frames: glideFrames)
        case .carrier: carrier.move(to: value, frames: glideFrames, exponential: exponential)
        case .beat: beat.move(to: value, frames: glideFrames, exponential: exponential)
        case .level: level.move(to: value, frames: glideFrames, exponential: exponential)
        case .duty: duty.move(to: value, frames: glideFrames)
        case .edge: edge.move(to: value, frames: glideFrames)
        case .convention: centered = Int(value) == EntrainmentParameters.Convention.centered.rawValue
        }
    }

    /// One stereo frame.
    @inlinable @inline(__always)
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
        if gain != 0 {
            let binaural = mode.current[0], monaural = mode.current[1], isochronic = mode.current[2]
            if binaural != 0 || monaural != 0 {
                let a = Self.read(&left, leftFrequency, waveform, bank)
                let z = Self.read(&right, rightFrequency, waveform, bank)
                let sum = monaural * 0.5 * (a + z)
                l += binaural * a + sum
                r += binaural * z + sum
            }
            if isochronic != 0 {
                let g = IsochronicGate.value(phase: gate.phase, duty: dutyNow, edge: edgeNow)
                let t = isochronic * g * Self.read(&pulse, c, waveform, bank)
                l += t
                r += t
            }
            l *= gain
            r *= gain
        }
        // Phases always advance, audible or not, so a voice fading in starts where time says it is.
        left.advance(frequency: leftFrequency, inverseRate: inverseRate)
        right.advance(frequency: rightFrequency, inverseRate: inverseRate)
        pulse.advance(frequency: c, inverseRate: inverseRate)
        gate.advance(frequency: b, inverseRate: inverseRate)
        return (l, r)
    }

    /// The oscillator's value under the current waveform crossfade.
    @inlinable @inline(__always)
    static func read(_ oscillator: inout Oscillator, _ frequency: Double, _ mix: ChoiceCrossfade,
                     _ bank: WavetableBank) -> Float {
        var value: Float = 0
        for w in 0..<ChoiceCrossfade.capacity where mix.current[w] != 0 {
            value += mix.current[w] * oscillator.value(Waveform(rawValue: w)!, frequency: frequency, bank: bank)
        }
        return value
    }
}
