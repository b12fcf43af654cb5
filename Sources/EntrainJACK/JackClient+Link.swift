import CJack
import CLink
import EntrainCore
import EntrainEngine

/// Ableton Link on the process thread: the session's beats drive the LED beat, the MIDI clock
/// (`--midi-clock-source link`), the timebase master and the ambient engine's grid while
/// following; the beats found on beat_in are committed to it while leading.
extension JackClient {
    /// Before activation: the process thread reads the session from now on.
    public func attach(_ link: LinkSession) {
        context.pointee.link.session = link.session
        held.withLock { $0.link = link }
        let context = self.context
        link.attach { mode, quantum in
            context.pointee.link.quantumBits.store(quantum.bitPattern, ordering: .relaxed)
            context.pointee.link.mode.store(mode.rawValue, ordering: .relaxed)
        }
    }

    /// The latest session beat the sound played on (engine frame, beat number) and a beat's
    /// length in frames, while following; nil otherwise.
    public func linkBeat() -> (frame: Int64, beat: Double, periodFrames: Double)? {
        guard context.pointee.link.currentMode == .follow, let (frame, number) = context.pointee.link.lastBeat.readRetrying() else { return nil }
        let period = Double(bitPattern: context.pointee.link.framesPerBeatBits.load(ordering: .relaxed))
        guard period > 0 else { return nil }
        return (Int64(bitPattern: frame), Double(Int64(bitPattern: number)), period)
    }
}

extension ProcessContext {
    /// Before the engine renders: the session's beats this period, handed to the engine for the
    /// LED and haptic beat while following.
    mutating func followLink(_ engine: UnsafeMutablePointer<Engine>, frames: jack_nframes_t) {
        guard link.session != nil, let client else { return }
        let sound = playbackLatency.load(ordering: .relaxed) + ownLatency.load(ordering: .relaxed)
        link.follow(client, start: engine.pointee.frame, frames: Int(frames), soundLatency: sound)
        engine.pointee.externalBeatCount = 0
        engine.pointee.externalBeatsInForce = link.currentMode == .follow
        for k in 0..<link.sound.count { engine.pointee.queueExternalBeat(at: link.sound.frames[k]) }
    }

    /// After the engine rendered: lead the session from the beats it found.
    mutating func leadLink(_ engine: UnsafeMutablePointer<Engine>, frames: jack_nframes_t) {
        guard link.session != nil, let client else { return }
        link.lead(client, engine, start: engine.pointee.frame - Int64(frames), frames: Int(frames),
                  inputLatency: captureLatency.load(ordering: .relaxed))
    }
}
