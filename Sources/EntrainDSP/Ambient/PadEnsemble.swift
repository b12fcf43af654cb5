/// The six always-running pad voices of the Kessho engine and their shared filter walk
/// (`FilterWalk`). A chord maps onto the voices enabled in a mask; each voice starts after its own
/// stagger offset; disabled voices release.
///
/// `add` (the engine's path) runs each voice's oscillators, air and envelope voice by voice,
/// then the six voices' filters and shaper at once in `PadLanes`; `next()` runs every voice
/// whole through its own filters (the reference the tests hold `add` to, bit for bit).
public struct PadEnsemble {
    public static var voiceCount: Int { 6 }

    public let sampleRate: Double
    let voices: UnsafeMutablePointer<PadVoice>
    /// The voices' filter inputs and envelope gains for up to `scratchFrames` frames, sixteen
    /// floats a frame in `PadLanes`' lane order (the idle lanes stay 0): see `add`. Written a
    /// float at a time, read a frame (SIMD16) at a time: one store and one load per value,
    /// where assigning a lane of a SIMD16 in memory reloaded and rewrote the whole vector.
    let inputs: UnsafeMutableRawPointer, levels: UnsafeMutableRawPointer
    static var scratchFrames: Int { 256 }
    var lanes: PadLanes
    public var walk: FilterWalk
    public var filterKind = WebAudioBiquad.Kind.lowpass
    public var cutoffLow = 400.0, cutoffHigh = 4000.0, filterQ = 1.0, filterModSpeed = 1.0

    public init(sampleRate: Double, bank: WavetableBank, seed: UInt64, timbre: PadVoice.Timbre = PadVoice.Timbre()) {
        self.sampleRate = sampleRate
        voices = .allocate(capacity: Self.voiceCount)
        for i in 0..<Self.voiceCount {
            (voices + i).initialize(to: PadVoice(sampleRate: sampleRate, bank: bank, seed: seed &+ UInt64(i) &* 0x9E37_79B9, timbre: timbre))
        }
        walk = FilterWalk(sampleRate: sampleRate, seed: seed ^ 0x7761_6C6B)
        let bytes = Self.scratchFrames * MemoryLayout<SIMD16<Float>>.stride
        inputs = .allocate(byteCount: bytes, alignment: MemoryLayout<SIMD16<Float>>.alignment)
        inputs.initializeMemory(as: Float.self, repeating: 0, count: 16 * Self.scratchFrames)
        levels = .allocate(byteCount: bytes, alignment: MemoryLayout<SIMD16<Float>>.alignment)
        levels.initializeMemory(as: Float.self, repeating: 0, count: 16 * Self.scratchFrames)
        // The lanes start where every voice starts (PadVoice.init): 3 kHz low-pass, Q 1, the timbre's tone.
        lanes = PadLanes(sampleRate: sampleRate, hardness: timbre.hardness)
        lanes.controls.setFilter(.lowpass, cutoff: 3000, q: 1)
        lanes.controls.setTone(warmth: timbre.warmth, presence: timbre.presence)
        lanes.controls.settle()
        lanes.takeCoefficients()
    }

    public func deallocate() {
        for i in 0..<Self.voiceCount { voices[i].deallocate() }
        voices.deinitialize(count: Self.voiceCount).deallocate()
        inputs.deallocate()
        levels.deallocate()
        lanes.deallocate()
    }

    public func voice(_ i: Int) -> PadVoice { voices[i] }

    /// The voices' clock: frames rendered so far (events are scheduled against it).
    public var frame: Int64 { voices[0].frame }

    public mutating func setTimbre(_ timbre: PadVoice.Timbre) {
        for v in 0..<Self.voiceCount { voices[v].setTimbre(timbre) }
        lanes.controls.setTone(warmth: timbre.warmth, presence: timbre.presence)
        lanes.shaper.setHardness(timbre.hardness)
    }

    /// Release every active voice now (a stopped engine starts the next chord from silence).
    public mutating func releaseAll(envelope: PadEnvelope) {
        for v in 0..<Self.voiceCount where voices[v].isActive { voices[v].release(envelope: envelope, atFrame: frame) }
    }

    /// Which chord note each voice plays (nil: released). The usable notes are chord[i] for
    /// i < min(6, chordSize) whose mask bit is set (none: chord[0]); enabled voice i takes
    /// usable[(enabled voices below i) mod count].
    public static func assignment(chordSize: Int, mask: Int) -> InlineArray<6, Int> {
        var usable = InlineArray<6, Int>(repeating: -1)
        var count = 0
        for i in 0..<min(6, chordSize) where mask & (1 << i) != 0 {
            usable[count] = i
            count += 1
        }
        if count == 0 { usable[0] = 0; count = 1 }
        var result = InlineArray<6, Int>(repeating: -1)
        var enabledBelow = 0
        for v in 0..<voiceCount where mask & (1 << v) != 0 {
            result[v] = usable[enabledBelow % count]
            enabledBelow += 1
        }
        return result
    }

    /// Stagger offsets from six uniform draws: u·waveSpread, sorted ascending (voice i gets the
    /// i-th smallest).
    public static func stagger(_ draws: InlineArray<6, Double>, waveSpread: Double) -> InlineArray<6, Double> {
        var offsets = draws
        for i in 0..<6 { offsets[i] = draws[i] * waveSpread }
        for i in 1..<6 {  // insertion sort: six values
            var j = i
            while j > 0 && offsets[j - 1] > offsets[j] {
                let t = offsets[j]; offsets[j] = offsets[j - 1]; offsets[j - 1] = t
                j -= 1
            }
        }
        return offsets
    }

    /// Apply a chord (`chordSize` frequencies) from `frame`, voice i after offsets[i] seconds.
    public mutating func apply(chord: InlineArray<6, Double>, chordSize: Int, mask: Int, envelope: PadEnvelope,
                               offsets: InlineArray<6, Double>, atFrame frame: Int64) {
        let notes = Self.assignment(chordSize: chordSize, mask: mask)
        for v in 0..<Self.voiceCount {
            let start = frame + Int64(offsets[v] * sampleRate)
            if notes[v] >= 0 {
                voices[v].play(frequency: chord[notes[v]], envelope: envelope, atFrame: start)
            } else if voices[v].isActive {
                voices[v].release(envelope: envelope, atFrame: frame)
            }
        }
    }

    /// A Euclid lane's note on voice `voice` from now: sustain at S·velocity, a crossfade if the
    /// voice sounds; after A + D + max(0.3 s, A + D) it falls toward 0 (τ = R/3).
    public mutating func playNote(voice v: Int, frequency: Double, velocity: Double, envelope: PadEnvelope) {
        guard v >= 0 && v < Self.voiceCount else { return }
        var env = envelope
        env.sustain = envelope.sustain * velocity
        voices[v].playNote(frequency: frequency, envelope: env, atFrame: voices[v].frame)
    }

    /// One stereo frame: the walk steps every 100 ms and retunes every voice's filter. (`add`
    /// renders blocks voice by voice with the same numbers.)
    @inline(__always)
    public mutating func next() -> (left: Float, right: Float) {
        if walk.tick(speed: filterModSpeed) { retune() }
        var l: Float = 0, r: Float = 0
        for v in 0..<Self.voiceCount {
            let (a, b) = voices[v].next()
            l += a
            r += b
        }
        return (l, r)
    }

    /// Every voice's filter to where the walk stands.
    @inline(__always)
    mutating func retune() {
        let cutoff = walk.cutoff(low: min(cutoffLow, cutoffHigh), high: max(cutoffLow, cutoffHigh))
        let q = FilterWalk.q(filterQ, cutoff: cutoff)
        for v in 0..<Self.voiceCount { voices[v].setFilter(filterKind, cutoff: cutoff, q: q) }
        lanes.controls.setFilter(filterKind, cutoff: cutoff, q: q)
    }

    /// Add `frames` frames into `left`/`right`, as `next()` frame by frame would, to the bit: the
    /// block is cut where the walk steps (it retunes every voice before that frame); in each
    /// piece every voice runs its oscillators, air and envelope from a local copy (its state
    /// stays in registers instead of going through the pointer every frame) into its lanes of
    /// `inputs` and `levels`, then `PadLanes` runs the six voices' filters and shaper at once and
    /// each frame's lanes are added in voice order from 0, the order of `next()`'s additions.
    @inline(__always)
    mutating func addVoiceByVoice(into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        var steps = walk.tick(speed: filterModSpeed)  // the first frame's step
        var start = 0
        while start < frames {
            if steps { retune() }
            // The piece runs up to the next frame the walk steps on, the block's end or the
            // scratch's; the walk has ticked for the piece's frames and for the next one's first.
            var end = start + 1
            steps = false
            while end < frames {
                let stepsHere = walk.tick(speed: filterModSpeed)
                if stepsHere || end - start == Self.scratchFrames { steps = stepsHere; break }
                end += 1
            }
            let count = end - start
            let inputLanes = inputs.assumingMemoryBound(to: Float.self), levelLanes = levels.assumingMemoryBound(to: Float.self)
            for v in 0..<Self.voiceCount {
                var voice = voices[v]
                for n in 0..<count {
                    let (x, level) = voice.source()
                    inputLanes[16 * n + v] = x[0]; inputLanes[16 * n + 8 + v] = x[1]
                    levelLanes[16 * n + v] = level; levelLanes[16 * n + 8 + v] = level
                }
                voices[v] = voice
            }
            var lanes = self.lanes
            let stride = MemoryLayout<SIMD16<Float>>.stride
            for n in 0..<count {
                let y = lanes.process(inputs.load(fromByteOffset: n * stride, as: SIMD16<Float>.self),
                                      level: levels.load(fromByteOffset: n * stride, as: SIMD16<Float>.self))
                var l: Float = 0, r: Float = 0
                for v in 0..<Self.voiceCount {
                    l += y[v]
                    r += y[8 + v]
                }
                left[start + n] += l
                right[start + n] += r
            }
            self.lanes = lanes
            start = end
        }
    }
}
