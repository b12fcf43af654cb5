/// The ambient engine's current chord as MIDI note numbers, for instrument slots to play:
/// `generation` counts changes, so a slot knows when to let the old notes go and strike the new.
public struct ChordNotes {
    var notes = InlineArray<6, UInt8>(repeating: 0)
    var count = 0
    var generation: UInt32 = 0
    /// The engine frame the last change fell on (instruments strike it there).
    var changedAt: Int64 = 0

    /// The chord of `size` frequencies (Hz), each to its nearest note.
    @inline(__always)
    mutating func set(_ frequencies: InlineArray<6, Double>, size: Int, at frame: Int64) {
        changedAt = frame
        count = min(max(size, 0), 6)
        for i in 0..<count { notes[i] = Self.nearestNote(frequencies[i]) }
        generation &+= 1
    }

    /// No chord (released, stopped).
    @inline(__always)
    mutating func clear(at frame: Int64) {
        guard count > 0 else { return }
        changedAt = frame
        count = 0
        generation &+= 1
    }

    /// The MIDI note nearest `hertz` (A4 = 440 Hz = 69), by octaves then semitones: plain
    /// arithmetic, no libm call, so it may run on the process thread.
    @inline(__always)
    static func nearestNote(_ hertz: Double) -> UInt8 {
        guard hertz.isFinite, hertz > 8 else { return 0 }
        var x = hertz / 440, note = 69
        while x >= 2 { x /= 2; note += 12 }
        while x < 1 { x *= 2; note -= 12 }
        var bound = 1.029_302_236_643_492  // half a semitone above
        var k = 0
        while k < 12, x >= bound { bound *= 1.059_463_094_359_295; k += 1 }
        return UInt8(min(127, max(0, note + k)))
    }
}
