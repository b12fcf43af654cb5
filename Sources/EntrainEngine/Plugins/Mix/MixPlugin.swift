import EntrainCore
import EntrainDSP

/// The mix input: music on mix_L/R (or a file, offline) played on the entrainment pair under
/// its fades, panic and ceiling, shaped at the beat. Without an input buffer (an unconnected
/// port, a render without --mix) it plays silence through the same code, so its state moves
/// exactly as it would with music.
public struct MixPlugin: EnginePlugin {
    typealias P = MixParameters

    public static let descriptor = PluginDescriptor(id: "mix", parameters: P.specs)

    var shaper: MixShaper
    /// Silence for an absent input, `Engine.maximumChunk` frames.
    let silence: UnsafeMutablePointer<Float>

    public init(sampleRate: Double, values: [Double]) {
        shaper = MixShaper(sampleRate: sampleRate) { values[$0.rawValue] }
        silence = .allocate(capacity: Engine.maximumChunk)
        silence.initialize(repeating: 0, count: Engine.maximumChunk)
    }

    public mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool) {
        guard let field = P.Field(rawValue: index) else { return }
        shaper.set(field, to: value, glideFrames: glideFrames, exponential: exponential)
    }

    /// Adds to the entrainment pair (rendered first by the entrainment plugin).
    public mutating func render(_ io: PortBuffers, _ range: Range<Int>) {
        guard shaper.isActive, let outL = io[.entrainmentL], let outR = io[.entrainmentR] else { return }
        let inL = io[.mixL].map { UnsafePointer($0) } ?? UnsafePointer(silence)
        let inR = io[.mixR].map { UnsafePointer($0) } ?? UnsafePointer(silence)
        shaper.render(inL, inR, outL, outR, range)
    }

    public func deallocate() { silence.deallocate() }
}
