import Foundation

/// The synthesized drum sounds. Each hit starts at full level on its first sample (no attack
/// ramp), so its onset is exactly that sample; each ends with a short fade so the tail adds no
/// onset of its own.
enum DrumVoice: CaseIterable {
    case kick, snare, closedHat, openHat, click, accentClick

    /// Length in seconds, about 5-6 decay constants (-43 to -54 dB at the end).
    var length: Double {
        switch self {
        case .kick: 0.25
        case .snare: 0.15
        case .closedHat: 0.04
        case .openHat: 0.25
        case .click, .accentClick: 0.015
        }
    }

    /// Time constant of the exponential decay, in seconds.
    var decay: Double {
        switch self {
        case .kick: 0.04  // short enough that an eighth-note hat at 180 BPM stands 10 dB above its tail
        case .snare: 0.03
        case .closedHat: 0.008
        case .openHat: 0.05
        case .click, .accentClick: 0.003
        }
    }

    /// Add one hit starting at sample `start` (hits running past the end are cut there).
    func render(into buffer: inout [Float], at start: Int, velocity: Float, sampleRate: Int, random: inout CorpusRandom) {
        let count = min(Int(length * Double(sampleRate)), buffer.count - start)
        guard start >= 0, count > 0 else { return }
        let total = Int(length * Double(sampleRate))
        let rate = Double(sampleRate), tau = decay
        var highPass1 = OnePoleHighPass(cutoff: self == .snare ? 1000 : 7000, sampleRate: sampleRate)
        var highPass2 = OnePoleHighPass(cutoff: 7000, sampleRate: sampleRate)
        var lowPass = OnePoleLowPass(cutoff: 6000, sampleRate: sampleRate)
        for i in 0..<count {
            let t = Double(i) / rate
            let envelope = exp(-t / tau) * Self.fade(i, total)
            var x: Double
            switch self {
            case .kick:
                // Pitch falls from 150 to 50 Hz with a 30 ms time constant; phase is its integral.
                let phase = 2 * Double.pi * (50 * t + 100 * 0.03 * (1 - exp(-t / 0.03)))
                x = sin(phase)
            case .snare:
                let tone = 0.45 * sin(2 * Double.pi * 190 * t) * exp(-t / 0.02)
                let noise = Double(lowPass(highPass1(random.bipolar()))) * 1.6
                x = tone + noise
            case .closedHat, .openHat:
                x = Double(highPass2(highPass1(random.bipolar()))) * 1.4
            case .click, .accentClick:
                x = sin(2 * Double.pi * (self == .click ? 1000 : 2000) * t)
            }
            buffer[start + i] += Float(x * envelope * gain) * velocity
        }
    }

    private var gain: Double {
        switch self {
        case .kick: 1.0
        case .snare: 0.8
        case .closedHat: 0.7
        case .openHat: 0.5
        case .click: 0.8
        case .accentClick: 1.0
        }
    }

    /// 1 until the last fifth of the hit, then a raised-cosine fade to 0.
    private static func fade(_ i: Int, _ total: Int) -> Double {
        let fadeStart = total * 4 / 5
        guard i >= fadeStart else { return 1 }
        return 0.5 + 0.5 * cos(Double.pi * Double(i - fadeStart) / Double(total - fadeStart))
    }
}
