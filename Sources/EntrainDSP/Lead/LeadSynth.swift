/// The lead bus: up to `capacity` FM notes summed, × the lead gain (τ 50 ms), a 4 kHz low-pass
/// (Q 0.7 dB), then dry to the master, a reverb send, and the ping-pong delay (mono in, right
/// line at 0.75 × the left) whose wet signal goes to the master and to its own reverb send.
public struct LeadSynth {
    public struct Settings: Sendable, BitwiseCopyable, Equatable {
        /// leadEnabled ? leadLevel : 0.
        public var gain = 0.0
        public var reverbSend = 0.0, delayReverbSend = 0.0
        /// The delay's settings between notes (a note may bring its own: sample-and-hold).
        public var delayMilliseconds = 375.0, delayFeedback = 0.4, delayMix = 0.35
        public init() {}
    }

    public static let capacity = 24
    let voices: UnsafeMutablePointer<FMVoice>
    /// The notes' sum for up to `scratchFrames` frames (left, then right).
    let notes: UnsafeMutablePointer<Float>
    static var scratchFrames: Int { 256 }
    let sine = SineTable()
    let sampleRate: Double
    var filterL = WebAudioBiquad(), filterR = WebAudioBiquad()
    public var delay: PingPongDelay
    var gain = 0.0, targetGain = 0.0
    var reverbSend: Float = 0, delayReverbSend: Float = 0
    let smoothing: Double
    public private(set) var settings = Settings()

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        voices = .allocate(capacity: Self.capacity)
        voices.initialize(repeating: FMVoice(), count: Self.capacity)
        notes = .allocate(capacity: 2 * Self.scratchFrames)
        filterL = WebAudioBiquad(.lowpass, frequency: 4000, q: 0.7, sampleRate: sampleRate)
        filterR = filterL
        delay = PingPongDelay(sampleRate: sampleRate)
        smoothing = 1 - FastMath.exp2(-1.442_695_040_888_963_4 / (0.05 * sampleRate))
        apply(Settings(), immediately: true)
    }

    public func deallocate() {
        voices.deallocate()
        notes.deallocate()
        delay.deallocate()
        sine.deallocate()
    }

    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func apply(_ s: Settings, immediately: Bool = false) {
        settings = s
        targetGain = s.gain
        if immediately { gain = s.gain }
        reverbSend = Float(s.reverbSend)
        delayReverbSend = Float(s.delayReverbSend)
        delay.set(milliseconds: s.delayMilliseconds, rightMilliseconds: 0.75 * s.delayMilliseconds,
                  feedback: s.delayFeedback, mix: s.delayMix, immediately: immediately)
    }

    /// Start a note now, on a free voice or else the oldest one.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func play(_ note: FMNote) {
        var chosen = 0, oldest = -1
        for i in 0..<Self.capacity {
            if !voices[i].active { chosen = i; oldest = -1; break }
            if voices[i].age > oldest { oldest = voices[i].age; chosen = i }
        }
        voices[chosen].start(note, sampleRate: sampleRate)
        delay.set(milliseconds: note.delayMilliseconds, rightMilliseconds: 0.75 * note.delayMilliseconds,
                  feedback: note.delayFeedback, mix: note.delayMix)
    }

    /// Silence every note (the engine stopped).
    public mutating func releaseAll() {
        for i in 0..<Self.capacity { voices[i].stop() }
        delay.clear()
    }

    public var activeVoices: Int { (0..<Self.capacity).reduce(0) { $0 + (voices[$1].active ? 1 : 0) } }

    /// Add `frames` of the lead to the master (`direct`) and the reverb input (`send`).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func add(direct: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                             send: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>), frames: Int) {
        var done = 0
        while done < frames {
            let n = min(Self.scratchFrames, frames - done)
            sumNotes(frames: n)
            addBus(direct: (direct.0 + done, direct.1 + done), send: (send.0 + done, send.1 + done), frames: n)
            done += n
        }
    }

    /// The sounding notes' sum into `notes`, voice by voice: each voice runs a whole block from a
    /// local copy (its state stays in registers, and an idle voice costs one check a block, not
    /// one a frame). Each frame still adds the voices in index order from 0, so the sums are the
    /// ones the frame-by-frame loop made, to the bit.
    @inline(__always)
    mutating func sumNotes(frames: Int) {
        let left = notes, right = notes + Self.scratchFrames
        for n in 0..<frames { left[n] = 0; right[n] = 0 }
        for i in 0..<Self.capacity where voices[i].active {
            var voice = voices[i]
            var n = 0
            while n < frames && voice.active {
                let s = voice.next(sine)
                left[n] += s.x
                right[n] += s.y
                n += 1
            }
            voices[i] = voice
        }
    }

    /// Gain, filter, delay and sends of the notes' sum in `notes`.
    @inline(__always)
    mutating func addBus(direct: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                         send: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>), frames: Int) {
        for n in 0..<frames {
            let sum = SIMD2(notes[n], notes[Self.scratchFrames + n])
            gain += (targetGain - gain) * smoothing
            let g = Float(gain)
            let l = filterL.process(sum.x * g), r = filterR.process(sum.y * g)
            let wet = delay.process((l + r) * 0.5, 0) * delay.wet
            direct.0[n] += l + wet.x
            direct.1[n] += r + wet.y
            send.0[n] += l * reverbSend + wet.x * delayReverbSend
            send.1[n] += r * reverbSend + wet.y * delayReverbSend
        }
    }
}
