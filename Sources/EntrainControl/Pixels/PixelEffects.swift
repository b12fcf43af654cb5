import Foundation

/// The effects, drawn into one colour per pixel (wiring order). Each keeps what it needs
/// between frames (the bands' fall, the last frame for the blend); everything else comes from
/// the moment shown. Simple on purpose: a rig's users tune palettes, speed and blend.
struct PixelEffects {
    let spec: PixelOutputSpec
    private var fallingBands = [Float](repeating: 0, count: 16)
    private var fallingLevel: Float = 0
    private var previous: [PixelColor]
    private var lastTime: Double?

    init(_ spec: PixelOutputSpec) {
        self.spec = spec
        previous = [PixelColor](repeating: .black, count: spec.pixels)
    }

    /// Column and row of pixel `i` (a strip is one row), rows counted from the first wired.
    func place(_ i: Int) -> (x: Int, y: Int) {
        guard spec.layout == .matrix else { return (i, 0) }
        let y = i / spec.width, along = i % spec.width
        return (spec.serpentine && y % 2 == 1 ? spec.width - 1 - along : along, y)
    }

    /// The frame for `moment` under `settings`, `time` seconds (monotonic) into the run.
    mutating func draw(_ moment: PixelMoment, _ settings: PixelSettings, time: Double) -> [PixelColor] {
        let dt = Float(min(0.25, max(0, time - (lastTime ?? time))))
        lastTime = time
        // Bands and level fall by 1/e in 150 ms / speed; they rise at once.
        let fall = Float(exp(-Double(dt) * settings.speed / 0.15))
        for k in 0..<min(fallingBands.count, moment.bands.count) { fallingBands[k] = max(moment.bands[k], fallingBands[k] * fall) }
        fallingLevel = max(moment.level, fallingLevel * fall)
        let n = spec.pixels, width = spec.width, height = spec.height
        let palette = settings.palette
        var out = [PixelColor](repeating: .black, count: n)
        switch settings.effect {
        case .off:
            break
        case .solid:
            for i in 0..<n { out[i] = Palette.color(palette, at: Float(place(i).x) / Float(width)) }
        case .pacer:
            let c = Palette.color(palette, at: moment.led * 0.5).scaled(moment.led)
            for i in 0..<n { out[i] = c }
        case .strobe:
            // A quarter of the pixels, in even runs: the most the flash safety lets flash at once.
            let run = max(1, width / 32)
            for i in 0..<n where (place(i).x / run) % 4 == 0 {
                out[i] = Palette.color(palette, at: Float(place(i).x) / Float(width)).scaled(moment.led)
            }
        case .beat:
            if case let (flash, index)? = beatFlash(moment, speed: settings.speed) {
                let c = Palette.color(palette, at: Float(index % 8) / 8).scaled(flash)
                for i in 0..<n { out[i] = c }
            }
        case .energy:
            for i in 0..<n {
                let (x, y) = place(i)
                let along = spec.layout == .matrix ? (Float(y) + 0.5) / Float(height) : (Float(x) + 0.5) / Float(width)
                if along <= fallingLevel { out[i] = Palette.color(palette, at: along) }
            }
        case .bands:
            let count = fallingBands.count
            for i in 0..<n {
                let (x, y) = place(i)
                let band = min(count - 1, x * count / width)
                let level = fallingBands[band]
                let c = Palette.color(palette, at: Float(band) / Float(count))
                if spec.layout == .matrix {
                    if (Float(y) + 0.5) / Float(height) <= level { out[i] = c }
                } else {
                    out[i] = c.scaled(level)
                }
            }
        case .scroll:
            let speed = Float(60 * settings.speed)  // pixels a second
            for onset in moment.onsets.suffix(64) where onset.frame <= moment.frame {
                let travelled = Float(Double(moment.frame - onset.frame) / moment.sampleRate) * speed
                guard travelled < Float(width) + 4 else { continue }
                let c = Palette.color(palette, at: Float(onset.frame % 7919) / 7919)
                for i in 0..<n {
                    let d = travelled - Float(place(i).x)
                    if d >= 0 && d < 4 { out[i] = PixelColor.brighter(out[i], c.scaled(max(0.2, onset.strength) * (1 - d / 4))) }
                }
            }
        }
        let keep = Float(settings.blend)
        if keep > 0 { for i in 0..<n { out[i] = out[i].mixed(with: previous[i], keep) } }
        previous = out
        return out
    }

    /// The latest beat's flash now (1 at the beat, falling by 1/e in 150 ms / speed) and the
    /// beat's index (each beat its colour); nil before the first beat or once it has faded.
    private func beatFlash(_ moment: PixelMoment, speed: Double) -> (Float, Int)? {
        guard let index = moment.beats.lastIndex(where: { $0.frame <= moment.frame }) else { return nil }
        let age = Double(moment.frame - moment.beats[index].frame) / moment.sampleRate
        let flash = Float(exp(-age * speed / 0.15))
        return flash > 0.004 ? (flash, Int(moment.beats[index].frame / 1000)) : nil
    }
}
