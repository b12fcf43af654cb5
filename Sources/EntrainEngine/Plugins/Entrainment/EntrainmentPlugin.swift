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
    var noiseLeft = NoiseGenerator(seed: 0x4C45_4654)   // independent streams per ear
    var noiseRight = NoiseGenerator(seed: 0x5249_4748)

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
        for i in range {
            outL[i] = 0
            outR[i] = 0
        }
        // Voice by voice (sums in the same order for any block size, so output never depends on it).
        for v in 0..<P.voiceCount where voices[v].isActive {
            voices[v].render(outL, outR, range, bank: bank, inverseRate: inverseRate)
        }
        if noiseLevel.value != 0 || noiseLevel.isMoving { addNoise(outL, outR, range) }
        if volume.isMoving || volume.value != 1 {
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
        for i in range {
            noiseColor.advance()
            let bed = Float(noiseLevel.next())
            let nl = noiseLeft.next(), nr = noiseRight.next()
            let white = noiseColor.current[0], pink = noiseColor.current[1], brown = noiseColor.current[2]
            outL[i] += bed * (white * nl.white + pink * nl.pink + brown * nl.brown)
            outR[i] += bed * (white * nr.white + pink * nr.pink + brown * nr.brown)
        }
    }

    public func deallocate() { voices.deinitialize(count: P.voiceCount).deallocate() }  // the bank is shared
}
