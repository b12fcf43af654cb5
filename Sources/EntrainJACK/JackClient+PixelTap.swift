import EntrainCore

/// The pixel outputs' view of each period (one reader: the pixel sender's thread).
extension JackClient {
    /// From the next period on, the LED ports render (connected or not) and each period's band
    /// levels, beat, onset and led value are queued for `takePixelFrames`.
    public func startPixelTap() { context.pointee.pixelTapping.store(true, ordering: .relaxed) }

    /// Reader side: the periods queued since the last call, oldest first.
    public func takePixelFrames(_ body: (PixelTapFrame) -> Void) {
        while let frame = context.pointee.pixelTap.pointee.popFirst() { body(frame) }
    }
}
