import EntrainCore
import EntrainDSP

/// Stereo entrainment: up to ten voices plus a noise bed, written to entrainment_L/R.
public struct EntrainmentPlugin: EnginePlugin {
    typealias P = EntrainmentParameters

    public static let descriptor = PluginDescriptor(id: "entrain", parameters: P.specs,
                                                    constraints: P.constraints)

    let bank: WavetableBank
    let inverseRate: Double
    /// Heap storage, mutated in place (an inline array of large structs gets copied per access).
    let voices: UnsafeMutablePointer<EntrainmentVoice>
    var volume: Glide
    var noiseLevel: Glide
    var noiseColor: ChoiceCrossfade
    var noise = StereoNoise(leftSeed: 0x4C45_4654, rightSeed: 0x5249_4748)  // independent per ear

    public init(sampleRate: Double, values: [Double]) {
        bank = WavetableBank.shared(sampleRate: sampleRate)
        inverseRate = 1 / sampleRate
        voices = .allocate(capacity: P.voiceCount)
        for voice in 0..<P.voiceCount {
            (voices + voice).initialize(to: EntrainmentVoice { values[P.index(voice: voice, $0)] })
        }
        volume = Glide(values[P.volume])
        noiseLevel = Glide(values[P.noiseLevel])
        noiseColor = ChoiceCrossfade(selected: Int(values[P.noise]))
    }

    public mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool) {
        switch index {
        case P.volume: volume.move(to: value, frames: glideFrames)
        case P.noiseLevel: noiseLevel.move(to: value, frames: glideFrames)
        case P.noise:
            let audible = noiseLevel.value != 0 || noiseLevel.isMoving
            noiseColor.select(Int(value), frames: audible ? glideFrames : 0)
        default:
            let voice = (index - P.globalCount) / P.fieldCount
            guard voice >= 0, voice < P.voiceCount,
                  let field = P.VoiceField(rawValue: (index - P.globalCount) % P.fieldCount) else { return }
            voices[voice].set(field, to: value, glideFrames: glideFrames, exponential: exponential)
        }
    }

    public mutating func render(_ io: PortBuffers, _ range: Range<Int>) {
        guard let outL = io[.entrainmentL], let outR = io[.entrainmentR] else { return }
        (outL + range.lowerBound).update(repeating: 0, count: range.count)
        (outR + range.lowerBound).update(repeating: 0, count: range.count)
        // Voice by voice (sums in the same order for any block size, so output never depends on it).
        for v in 0..<P.voiceCount where voices[v].isActive {
            voices[v].render(outL, outR, range, bank: bank, inverseRate: inverseRate)
        }
        if noiseLevel.value != 0 || noiseLevel.isMoving { addNoise(outL, outR, range) }
        if !volume.isMoving && volume.value != 1 {
            let gain = Float(volume.value)  // what `next()` returns while resting
            BlockMath.scale(outL + range.lowerBound, count: range.count, by: gain)
            BlockMath.scale(outR + range.lowerBound, count: range.count, by: gain)
        } else if volume.isMoving {
            var volume = self.volume  // local copy: see EntrainmentVoice.render
            defer { self.volume = volume }
            for i in range {
                let gain = Float(volume.next())
                outL[i] *= gain
                outR[i] *= gain
            }
        }
    }

    @inline(__always)
    mutating func addNoise(_ outL: UnsafeMutablePointer<Float>, _ outR: UnsafeMutablePointer<Float>,
                           _ range: Range<Int>) {
        var color = noiseColor, level = noiseLevel, noise = self.noise  // local copies: see EntrainmentVoice.render
        defer { noiseColor = color; noiseLevel = level; self.noise = noise }
        if !color.isMoving, !level.isMoving, let only = NoiseColor(rawValue: color.selected) {
            noise.add(only, gain: Float(level.value), to: outL, outR, range)
            return
        }
        if !color.isMoving, let only = NoiseColor(rawValue: color.selected) {
            for i in range {
                let n = Float(level.next()) * noise.next(only)
                outL[i] += n.x
                outR[i] += n.y
            }
            return
        }
        for i in range {
            color.advance()
            let bed = Float(level.next())
            let n = noise.next()
            let mix = color.current[0] * n.white + color.current[1] * n.pink + color.current[2] * n.brown
            outL[i] += bed * mix.x
            outR[i] += bed * mix.y
        }
    }

    public func deallocate() { voices.deinitialize(count: P.voiceCount).deallocate() }  // the bank is shared
}
