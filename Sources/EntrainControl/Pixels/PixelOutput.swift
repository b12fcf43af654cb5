import EntrainCore
import EntrainEngine

/// One output as the sender drives it: its family (the settings), effects, flash guard and
/// wire, and where it is in the timeline. Touched by the sender's thread only.
struct PixelOutput {
    let family: PixelFamily
    var effects: PixelEffects
    var guardian: FlashGuard
    var wire: PixelWire
    /// The engine frame its last frame showed (the bands shown next are the peaks since).
    var shown: Int64 = .min
    /// When its next frame is due (monotonic seconds).
    var deadline = 0.0
    var framesSent = 0
    /// Its own thermal model, as the LED fixture's: a strip held bright for minutes is capped
    /// like a lamp would be (1 / 0.5 / 0.1 / 0), whatever the LED's own state.
    var heat: LEDThermalModel

    init(_ family: PixelFamily) {
        self.family = family
        effects = PixelEffects(family.spec)
        guardian = FlashGuard(pixels: family.spec.pixels, channels: family.spec.bytesPerPixel)
        wire = PixelWire(family.spec)
        heat = LEDThermalModel(sampleRate: family.spec.rate)
    }

    /// Accounts for a frame sent: its average drive (every channel of every pixel, 0…1) heats the model.
    mutating func account(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        var sum = 0
        for b in bytes { sum += Int(b) }
        heat.heat(by: Float(sum) / Float(bytes.count * 255))
        heat.update()
    }

    var spec: PixelOutputSpec { family.spec }

    /// Colours as the wire's bytes: brightness applied, the white channel where there is one,
    /// in the output's channel order.
    func bytes(_ colors: [PixelColor], gain: Float) -> [UInt8] {
        let order = spec.order, k = spec.bytesPerPixel
        var out = [UInt8](repeating: 0, count: colors.count * k)
        for (i, c) in colors.enumerated() {
            for (slot, channel) in order.enumerated() {
                let v = min(1, max(0, c[channel] * gain))
                out[i * k + slot] = UInt8((v.isFinite ? v : 0) * 255 + 0.5)
            }
        }
        return out
    }

    /// A black frame.
    var black: [UInt8] { [UInt8](repeating: 0, count: spec.pixels * spec.bytesPerPixel) }
}
