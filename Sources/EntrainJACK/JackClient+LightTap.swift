import CJack
import EntrainCore

/// The light's values for senders on their own thread (DMX): one reader at a time.
extension JackClient {
    /// From the next period on, every light and haptic CV value is rendered (connected or not)
    /// and each period's last values queued for `takeLightFrames`.
    public func startLightTap() { context.pointee.tapping.store(true, ordering: .relaxed) }

    /// Reader side: the periods queued since the last call, oldest first.
    public func takeLightFrames(_ body: (LightTapFrame) -> Void) {
        while let frame = context.pointee.tap.pointee.popFirst() { body(frame) }
    }

    /// The engine frame playing now (from the latest cycle's start and JACK's clock), nil before
    /// the first cycle.
    public func engineFrameNow() -> Int64? {
        guard let anchor = context.pointee.anchor() else { return nil }
        let elapsed = Double(jack_get_time()) - Double(anchor.micros)
        return anchor.frame + Int64((elapsed * sampleRate / 1e6).rounded(.down))
    }
}
