import EntrainCore
import EntrainDSP

/// Stereo entrainment: up to ten voices plus a noise bed, written to entrainment_L/R.
public struct EntrainmentPlugin: EnginePlugin {
    typealias P = EntrainmentParameters

    public static let descriptor = PluginDescriptor(id: "entrain", parameters: P.specs,
                                                    constraints: P.constraints)

    let bank: WavetableBank
    let inverseRate: Double
    var voices: InlineArray<10, EntrainmentVoice>
    var volume: Glide
    var noiseLevel: Glide
    var noiseColor: ChoiceCrossfade
    var noiseLeft = NoiseGenerator(seed: 0x4C45_4654)   // independent streams per ear
    var noiseRight = NoiseGenerator(seed: 0x5249_4748)

    public init(sampleRate: Double, values: [Double]) {
        bank = WavetableBank(sampleRate: sampleRate)
        inverseRate = 1 / sampleRate
        voices = InlineArray { voice in EntrainmentVoice { values[P.index(voice: voice, $0)] } }
        volume = Glide(values[P.volume])
        noiseLevel = Glide(values[P.noiseLevel])
        noiseColor = ChoiceCrossfade(selected: Int(values[P.noise]))
    }

    public mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool) {
        switch index {
        case P.volume: volume.move(to: value, frames: glideFrames)
        case P.noiseLevel: noiseLevel.move(to: value, frames: glideFrames)
        case P.noise: noiseColor.select(Int(value), frames: glideFrames)
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
            var l: Float = 0
            var r: Float = 0
            for v in 0..<P.voiceCount {
                let (vl, vr) = voices[v].next(bank: bank, inverseRate: inverseRate)
                l += vl
                r += vr
            }
            noiseColor.advance()
            let bed = Float(noiseLevel.next())
            let nl = noiseLeft.next(), nr = noiseRight.next()
            if bed != 0 {
                let w = noiseColor.current
                l += bed * (w[0] * nl.white + w[1] * nl.pink + w[2] * nl.brown)
                r += bed * (w[0] * nr.white + w[1] * nr.pink + w[2] * nr.brown)
            }
            let gain = Float(volume.next())
            outL[i] = l * gain
            outR[i] = r * gain
        }
    }

    public func deallocate() { bank.deallocate() }
}
