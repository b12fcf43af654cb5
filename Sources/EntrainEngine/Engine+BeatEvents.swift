import EntrainCore

extension Engine {
    // The beat analysis's events of the period just processed (all its chunks' when it was longer
    // than `maximumChunk`): what the JACK client turns into MIDI on the same frames.
    // Static, through the pointer: a method on `engine.pointee` from another module copies the
    // whole engine (hundreds of kB) onto the process thread's stack first.

    public static func beatEventCount(_ engine: UnsafeMutablePointer<Engine>) -> Int { engine.pointee.beat.periodEventCount }

    public static func beatEvent(_ engine: UnsafeMutablePointer<Engine>, _ k: Int) -> BeatEvent { engine.pointee.beat.periodEvents[k] }

    /// Whether the host may leave beat_in out of this period when nothing is patched into it:
    /// the analysis has heard only digital silence for longer than it keeps anything (and
    /// publishes no beats), so more silence would only age its state. Left out, the analysis
    /// computes nothing, as in an offline render without beat_in.
    public static func beatInputResting(_ engine: UnsafeMutablePointer<Engine>) -> Bool { engine.pointee.beat.resting }
}

extension Engine {
    /// The beat analysis's band levels after the period just processed (0…1, `bandCount` of
    /// them, lowest first): what the pixel outputs' spectrum shows.
    public static var bandCount: Int { BandLevels.count }

    public static func bandLevel(_ engine: UnsafeMutablePointer<Engine>, _ k: Int) -> Float { engine.pointee.beat.bands.levels[k] }
}
