import EntrainCore

extension Engine {
    /// The beat analysis's events of the period just rendered (for periods longer than
    /// `maximumChunk`, its last chunk's): what the JACK client turns into MIDI on the same frames.
    public var beatEventCount: Int { beat.eventCount }

    @inline(__always)
    public func beatEvent(_ k: Int) -> BeatEvent { beat.events[k] }
}
