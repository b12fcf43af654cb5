import EntrainDSP

/// The client's start/stop fade, for light and touch: the same sin² curve over the same frames
/// as the audio pairs' fade, so when a timer or a session ends the LED and haptic ports go dark
/// on the frame the sound does (applied before their delay lines, which wait for the sound).
struct OutputFade {
    var position = Glide(1)

    /// Towards on (1) or dark (0) over `frames`, from the frame the engine's start or stop applies.
    mutating func move(to target: Double, frames: Int) { position.move(to: target, frames: frames) }

    /// Nobody listens: land on the target at once, so nothing flashes when someone does.
    mutating func settle() { position.move(to: position.target, frames: 0) }

    /// The gain of the next frame.
    @inline(__always)
    mutating func next() -> Float {
        let s = FastMath.sinTurns(0.25 * position.next())
        return Float(s * s)
    }
}
