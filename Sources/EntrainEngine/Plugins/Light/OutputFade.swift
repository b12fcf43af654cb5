import EntrainDSP

/// The client's start/stop fade, for light and touch: the same sin² curve over the same frames
/// as the audio pairs' fade, so when a timer or a session ends the LED and haptic ports go dark
/// on the frame the sound does (applied before their delay lines, which wait for the sound).
struct OutputFade {
    var position = Glide(1)
    /// The gain at rest (`position` not moving) and the position it was worked out for: nearly
    /// every frame is at rest, and the sine is then taken once, not once a frame.
    private var restingGain: Float = 0
    private var restingAt = Double.nan  // nothing worked out yet

    /// Towards on (1) or dark (0) over `frames`, from the frame the engine's start or stop applies.
    mutating func move(to target: Double, frames: Int) { position.move(to: target, frames: frames) }

    /// Nobody listens: land on the target at once, so nothing flashes when someone does.
    mutating func settle() { position.move(to: position.target, frames: 0) }

    /// The gain of the next frame.
    @inline(__always)
    mutating func next() -> Float {
        guard position.isMoving || position.value != restingAt else { return restingGain }
        let at = position.next()
        let gain = Self.gain(at)
        if !position.isMoving && position.value == at { restingAt = at; restingGain = gain }
        return gain
    }

    @inline(__always)
    static func gain(_ position: Double) -> Float {
        let s = FastMath.sinTurns(0.25 * position)
        return Float(s * s)
    }
}
