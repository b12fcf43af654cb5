import EntrainCore

extension Engine {
    // The beat analysis's events of the period just processed (all its chunks' when it was longer
    // than `maximumChunk`): what the JACK client turns into MIDI on the same frames.
    // Static, through the pointer: a method on `engine.pointee` from another module copies the
    // whole engine (hundreds of kB) onto the process thread's stack first.

    public static func beatEventCount(_ engine: UnsafeMutablePointer<Engine>) -> Int { engine.pointee.beat.periodEventCount }

    public static func beatEvent(_ engine: UnsafeMutablePointer<Engine>, _ k: Int) -> BeatEvent { engine.pointee.beat.periodEvents[k] }
}

extension Engine {
    /// The beat analysis's band levels after the period just processed (0…1, `bandCount` of
    /// them, lowest first): what the pixel outputs' spectrum shows.
    public static var bandCount: Int { BandLevels.count }

    public static func bandLevel(_ engine: UnsafeMutablePointer<Engine>, _ k: Int) -> Float { engine.pointee.beat.bands.levels[k] }
}
