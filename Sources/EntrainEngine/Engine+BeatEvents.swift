import EntrainCore

extension Engine {
    // The beat analysis's events of the period just rendered (for periods longer than
    // `maximumChunk`, its last chunk's): what the JACK client turns into MIDI on the same frames.
    // Static, through the pointer: a method on `engine.pointee` from another module copies the
    // whole engine (hundreds of kB) onto the process thread's stack first.

    public static func beatEventCount(_ engine: UnsafeMutablePointer<Engine>) -> Int { engine.pointee.beat.eventCount }

    public static func beatEvent(_ engine: UnsafeMutablePointer<Engine>, _ k: Int) -> BeatEvent { engine.pointee.beat.events[k] }
}
