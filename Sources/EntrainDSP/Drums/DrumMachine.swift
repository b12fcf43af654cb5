/// The drum bus: hits on a pool of voices (each voice kind at most its polyphony; the oldest is
/// faded out in 5 ms), summed mono, × the drum level to the master; a reverb send taken before
/// the level; each hit's delay send into a ping-pong delay that feeds both lines, with a
/// low-pass in the loop, whose wet signal goes to the master (bypassing the drum level).
public struct DrumMachine {
    public struct Settings: Sendable, BitwiseCopyable, Equatable {
        /// drumEnabled ? drumLevel : 0, and drumEnabled ? drumReverbSend : 0.
        public var level = 0.0, reverbSend = 0.0
        /// drumDelayEnabled ? drumDelayMix : 0; the lines' times (ms), feedback, loop low-pass (Hz).
        public var delayMix = 0.0, delayLeftMilliseconds = 375.0, delayRightMilliseconds = 500.0
        public var delayFeedback = 0.4, delayFilter = 2828.0
        public init() {}
    }

    public static let capacity = 24
    let voices: UnsafeMutablePointer<DrumVoice>
    let sampleRate: Double
    public var delay: PingPongDelay
    var level: Float = 0, reverbSend: Float = 0
    /// Each slot's delay send (the hit's).
    var sends = InlineArray<24, Float>(repeating: 0)
    /// The hits' sum and their delay sends' sum for up to `scratchFrames` frames.
    let sums: UnsafeMutablePointer<Float>
    static var scratchFrames: Int { 256 }
    public private(set) var settings = Settings()

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        voices = .allocate(capacity: Self.capacity)
        voices.initialize(repeating: DrumVoice(), count: Self.capacity)
        sums = .allocate(capacity: 2 * Self.scratchFrames)
        delay = PingPongDelay(sampleRate: sampleRate, maximumSeconds: 6)
        apply(Settings(), immediately: true)
    }

    public func deallocate() {
        voices.deallocate()
        sums.deallocate()
        delay.deallocate()
    }

    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func apply(_ s: Settings, immediately: Bool = false) {
        settings = s
        level = Float(s.level)
        reverbSend = Float(s.reverbSend)
        delay.set(milliseconds: s.delayLeftMilliseconds, rightMilliseconds: s.delayRightMilliseconds,
                  feedback: s.delayFeedback, mix: s.delayMix, immediately: immediately)
        delay.setLoopFilter(frequency: s.delayFilter)
    }

    /// Start a hit now.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func play(_ sound: DrumSound) {
        var sameKind = 0, oldestOfKind = -1, oldestAge = -1
        for i in 0..<Self.capacity where voices[i].active && voices[i].voice == sound.voice && !voices[i].isFading {
            sameKind += 1
            if voices[i].age > oldestAge { oldestAge = voices[i].age; oldestOfKind = i }
        }
        if sameKind >= sound.voice.polyphony, oldestOfKind >= 0 { voices[oldestOfKind].steal() }
        var slot = -1, oldest = -1
        for i in 0..<Self.capacity {
            if !voices[i].active { slot = i; break }
            if voices[i].age > oldest { oldest = voices[i].age; slot = i }
        }
        voices[slot].start(sound, sampleRate: sampleRate)
        sends[slot] = Float(sound.delaySend)
    }

    public mutating func releaseAll() {
        for i in 0..<Self.capacity where voices[i].active { voices[i].steal() }
        delay.clear()
    }

    public var activeVoices: Int { (0..<Self.capacity).reduce(0) { $0 + (voices[$1].active ? 1 : 0) } }

    /// Add `frames` of the drums to the master (`direct`) and the reverb input (`send`).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func add(direct: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                             send: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>), frames: Int) {
        var done = 0
        while done < frames {
            let count = min(Self.scratchFrames, frames - done)
            sumHits(frames: count)
            let toDelay = sums + Self.scratchFrames
            for n in 0..<count {
                let sum = sums[n], at = done + n
                let wet = delay.process(toDelay[n], toDelay[n]) * delay.wet
                direct.0[at] += sum * level + wet.x
                direct.1[at] += sum * level + wet.y
                send.0[at] += sum * reverbSend
                send.1[at] += sum * reverbSend
            }
            done += count
        }
    }

    /// The sounding hits' sum and delay sends' sum into `sums`, voice by voice: each voice runs
    /// the block in place (a voice holds a 4 KB string buffer: no copy), and an idle one costs
    /// one check a block, not one a frame. Each frame still adds the voices in index order from
    /// 0, so the sums are the frame-by-frame loop's, to the bit.
    @inline(__always)
    mutating func sumHits(frames: Int) {
        let sum = sums, toDelay = sums + Self.scratchFrames
        for n in 0..<frames { sum[n] = 0; toDelay[n] = 0 }
        for i in 0..<Self.capacity where voices[i].active {
            let voice = voices + i
            let send = sends[i]
            var n = 0
            while n < frames && voice.pointee.active {
                let x = voice.pointee.next()
                sum[n] += x
                toDelay[n] += x * send
                n += 1
            }
        }
    }
}
