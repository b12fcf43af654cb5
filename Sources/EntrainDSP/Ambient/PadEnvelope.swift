/// The pad's envelope times (Kessho keys synthAttack/Decay/Sustain/Release), in seconds and
/// 0–1 for the sustain level.
public struct PadEnvelope: Sendable, Equatable, BitwiseCopyable {
    public var attack: Double, decay: Double, sustain: Double, release: Double

    public init(attack: Double = 6, decay: Double = 1, sustain: Double = 0.8, release: Double = 12) {
        self.attack = attack; self.decay = decay; self.sustain = sustain; self.release = release
    }
}

extension TargetEnvelope {
    /// Fresh note, as Kessho's pad plays it: from 0 at `frame`, toward 1 with τ = A/3; at frame + A toward
    /// S with τ = D/3. Later events are cancelled first.
    @discardableResult
    public mutating func scheduleAttack(_ env: PadEnvelope, atFrame frame: Int64, fromZero: Bool = true) -> Bool {
        cancel(fromFrame: frame)
        let decayStart = frame + Int64(FastMath.floor(env.attack * sampleRate + 0.5))
        var ok = true
        if fromZero { ok = setValue(0, atFrame: frame) && ok }
        ok = setTarget(1, timeConstant: env.attack / 3, atFrame: frame) && ok
        ok = setTarget(env.sustain, timeConstant: env.decay / 3, atFrame: decayStart) && ok
        return ok
    }

    /// Release toward 0 with τ = R/4 from `frame`; later events are cancelled.
    @discardableResult
    public mutating func scheduleRelease(_ env: PadEnvelope, atFrame frame: Int64) -> Bool {
        cancel(fromFrame: frame)
        return setTarget(0, timeConstant: env.release / 4, atFrame: frame)
    }

    /// Chord-change crossfade on a sounding voice: release (τ = R/4) at `frame`, then at
    /// frame + R/2 a new attack from wherever the release got to. Returns that second frame,
    /// where the caller steps the pitch.
    @discardableResult
    public mutating func scheduleCrossfade(_ env: PadEnvelope, atFrame frame: Int64) -> Int64 {
        scheduleRelease(env, atFrame: frame)
        let restart = frame + Int64(FastMath.floor(env.release / 2 * sampleRate + 0.5))
        scheduleAttack(env, atFrame: restart, fromZero: false)
        return restart
    }
}
