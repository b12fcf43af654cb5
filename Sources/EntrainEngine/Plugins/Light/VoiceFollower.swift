import EntrainDSP

/// Voice 1's beat as light and touch follow it: the voice (stable heap memory of the
/// entrainment plugin), an exact strobe clock, and per range the beat's trajectory — a copy of
/// the voice's beat glide stepped frame by frame exactly as the voice steps it.
struct VoiceFollower {
    var voice: UnsafeMutablePointer<EntrainmentVoice>?
    var clock: StrobeClock
    private var wasActive = false
    /// For the current range: following an audible voice, and whether it is isochronic.
    private(set) var active = false
    private(set) var isochronic = false
    private var frequency = 0.0
    private var steady = true
    private var glide = Glide(0)

    init(sampleRate: Double) { clock = StrobeClock(sampleRate: sampleRate) }

    /// At a range's first frame: read the voice; when it (re)starts being followed, take its
    /// gate's phase, which is the sound's modulation phase.
    mutating func begin(following: Bool) {
        guard let voice else { active = false; return }
        let v = voice.pointee
        active = following && v.isActive
        if active && !wasActive { clock.synchronise(phase: v.gate.phase) }
        wasActive = v.isActive
        frequency = v.beat.value
        steady = !v.beat.isMoving
        isochronic = v.mode.selected == EntrainmentParameters.Mode.isochronic.rawValue
        glide = v.beat
    }

    /// The beat frequency and the clock's phase at `frame` (frames in order within the range).
    @inline(__always)
    mutating func next(frame: Int64) -> (frequency: Double, phase: Double) {
        let f = steady ? frequency : glide.next()
        return (f, clock.tick(frame: frame, frequency: f, steady: steady))
    }

    /// Nobody is listening for a while: take the voice's phase again when someone is.
    mutating func forget() { wasActive = false }
}
