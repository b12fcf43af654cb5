import EntrainCore
import EntrainEngine

extension ProcessContext {
    /// The period's band levels, its latest beat and onset, and the led port's last value, for
    /// the pixel sender (a full ring drops it: the sender is late and catches up).
    func publishPixelTap(_ engine: UnsafeMutablePointer<Engine>, _ io: PortBuffers, at offset: Int) {
        var frame = PixelTapFrame(frame: engine.pointee.frame - 1, bands: InlineArray<16, Float>(repeating: 0))
        for k in 0..<min(PixelTapFrame.bandCount, Engine.bandCount) { frame.bands[k] = Engine.bandLevel(engine, k) }
        for k in 0..<Engine.beatEventCount(engine) {
            let event = Engine.beatEvent(engine, k)
            if event.kind == .beat {
                frame.beatFrame = event.frame
                frame.beatStrength = event.strength
            } else {
                frame.onsetFrame = event.frame
                frame.onsetStrength = event.strength
            }
        }
        if let led = io.buffers[ClientPort.led.rawValue] { frame.led = led[offset] }
        _ = pixelTap.pointee.push(frame)
    }
}
