/// The ambient engine's sound (Kessho): six pad voices and their filter walk into the
/// granulator, FDN reverb and ocean, the FM lead and the drum machine, mixed as the web routes
/// them. Every entry point
/// the process thread uses carries @_noLocks in optimised builds, so the engine's plugin (in
/// another module) may call them from its own checked render.
public struct AmbientSound {
    /// One block of the lead's and drums' direct signal and reverb sends.
    public struct Scratch {
        let directL, directR, sendL, sendR: UnsafeMutablePointer<Float>

        init(capacity: Int) {
            directL = .allocate(capacity: capacity); directR = .allocate(capacity: capacity)
            sendL = .allocate(capacity: capacity); sendR = .allocate(capacity: capacity)
        }

        func deallocate() {
            directL.deallocate(); directR.deallocate(); sendL.deallocate(); sendR.deallocate()
        }

        func clear(_ frames: Int) {
            for i in 0..<frames { directL[i] = 0; directR[i] = 0; sendL[i] = 0; sendR[i] = 0 }
        }
    }

    public let sampleRate: Double
    public var pad: PadEnsemble
    public var mix: AmbientMix
    public var lead: LeadSynth
    public var drums: DrumMachine
    public private(set) var settings = AmbientSettings()
    /// Scratch for one block of the pad bus, and of the lead and drums.
    let padL: UnsafeMutablePointer<Float>, padR: UnsafeMutablePointer<Float>
    let bus: Scratch
    public let blockCapacity: Int

    /// `blockCapacity`: the most frames `render` is asked for at once.
    public init(sampleRate: Double, quality: FDNReverb.Quality, blockCapacity: Int) {
        self.sampleRate = sampleRate
        self.blockCapacity = blockCapacity
        // Fixed seeds here; `reseed` replaces what the web leaves to Math.random.
        pad = PadEnsemble(sampleRate: sampleRate, bank: WavetableBank.shared(sampleRate: sampleRate), seed: 0x4B45_5353_484F)
        mix = AmbientMix(sampleRate: sampleRate, seed: 0x4D49_58, quality: quality)
        lead = LeadSynth(sampleRate: sampleRate)
        drums = DrumMachine(sampleRate: sampleRate)
        padL = .allocate(capacity: blockCapacity)
        padR = .allocate(capacity: blockCapacity)
        bus = Scratch(capacity: blockCapacity)
        apply(settings)
    }

    public func deallocate() {
        pad.deallocate()
        mix.deallocate()
        padL.deallocate()
        padR.deallocate()
        lead.deallocate()
        drums.deallocate()
        bus.deallocate()
    }

    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func apply(_ s: AmbientSettings) {
        settings = s
        pad.setTimbre(s.timbre)
        pad.filterKind = s.filterKind
        pad.cutoffLow = s.cutoffLow
        pad.cutoffHigh = s.cutoffHigh
        pad.filterQ = s.filterQ
        pad.filterModSpeed = s.filterModSpeed
        mix.granulator.apply(s.granular)
        mix.reverb.apply(s.reverb)
        mix.ocean.settings = s.ocean
        mix.apply(s.levels)  // after the ocean's settings: the levels decide its intensity
        lead.apply(s.lead)
        drums.apply(s.drums)
    }

    /// Start a lead note now.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func play(note: FMNote) { lead.play(note) }

    /// Start a drum hit now.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func play(hit: DrumSound) { drums.play(hit) }

    /// A Euclid lane's note on pad voice `voice` (before the octave shift).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func playPad(voice: Int, frequency: Double, velocity: Double) {
        pad.playNote(voice: voice, frequency: frequency * FastMath.exp2(settings.octave), velocity: velocity,
                     envelope: settings.envelope)
    }

    /// The chord sequencer is off: the pad's voices release.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func releasePad() { pad.releaseAll(envelope: settings.envelope) }

    /// Apply a chord now (frequencies before the octave shift), voice i `offsets[i]` s late.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func play(chord: InlineArray<6, Double>, size: Int, offsets: InlineArray<6, Double>) {
        var shifted = chord
        let ratio = FastMath.exp2(settings.octave)
        for i in 0..<6 { shifted[i] *= ratio }
        pad.apply(chord: shifted, chordSize: size, mask: settings.voiceMask, envelope: settings.envelope,
                  offsets: offsets, atFrame: pad.frame)
    }

    /// The granulator's next draws: the engine stream resumed from `counter` (10 000 values).
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func loadGrainSequence(streamCounter counter: Double) {
        var stream = Mulberry32(counter: counter)
        mix.granulator.loadSequence(from: &stream, count: Granulator.sequenceCapacity)
    }

    /// The randomness the web draws from Math.random: the filter walk, the granulator's own
    /// stream (used until the first sequence arrives) and the ocean.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func reseed(_ seed: UInt64) {
        pad.walk = FilterWalk(sampleRate: sampleRate, seed: seed ^ 0x7761_6C6B)
        mix.granulator.reseed(seed ^ 0x6772_6169_6E)
        mix.ocean = OceanWaves(sampleRate: sampleRate, seed: seed ^ 0x6F63_6561_6E, settings: mix.ocean.settings)
    }

    /// Release every voice now, so the next chord starts from silence.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func releaseAll() {
        pad.releaseAll(envelope: settings.envelope)
        lead.releaseAll()
        drums.releaseAll()
    }

    /// Write `frames` frames (at most `blockCapacity`) of the ambient master into `left`/`right`.
    #if REALTIME_CHECKED
    @_noLocks
    #endif
    public mutating func render(into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames { padL[i] = 0; padR[i] = 0 }
        pad.add(into: padL, padR, frames: frames)
        bus.clear(frames)
        lead.add(direct: (bus.directL, bus.directR), send: (bus.sendL, bus.sendR), frames: frames)
        drums.add(direct: (bus.directL, bus.directR), send: (bus.sendL, bus.sendR), frames: frames)
        mix.mix(padL, padR, bus: bus, into: left, right, frames: frames)
    }
}
