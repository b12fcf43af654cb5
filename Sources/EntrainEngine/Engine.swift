import EntrainCore
import EntrainDSP

/// The real-time engine: the plugins in a fixed order, the master section and the frame clock.
///
/// It lives in one heap block reached by pointer. `render` runs on the process thread (or in
/// the offline renderer: the same code) and is checked by the compiler with @_noLocks.
public struct Engine {
    /// Every plugin, in processing order, then the master section. Adding a plugin: its folder,
    /// this list, a stored property below, and a case in `set` and `renderRange`.
    public static let parameterTable = ParameterTable(plugins: [
        EntrainmentPlugin.descriptor,
        BeatAnalysisPlugin.descriptor,
        LightPlugin.descriptor,
        HapticPlugin.descriptor,
        MixPlugin.descriptor,
        SoundsPlugin.descriptor,
        MasterParameters.descriptor,
    ])

    /// `process` hands the engine at most this many frames at a time (longer periods are split).
    static var maximumChunk: Int { 4096 }

    public let sampleRate: Double
    // Where each plugin's parameters start in the table (instance copies: no lazy globals on the process thread).
    let entrainmentOffset: Int
    let beatOffset: Int
    let lightOffset: Int
    let hapticOffset: Int
    let mixOffset: Int
    let soundsOffset: Int
    let masterOffset: Int
    /// Frames rendered so far: the engine's clock. Frame 0 is the first frame ever rendered.
    public private(set) var frame: Int64 = 0
    var entrainment: EntrainmentPlugin
    var entrainmentBus: OutputBus
    var beat: BeatAnalysisPlugin
    var light: LightPlugin
    var haptic: HapticPlugin
    /// The music on mix_L/R, added to the entrainment pair before its bus.
    var mixInput: MixPlugin
    /// Spinning noise and the struck bell (on the entrainment pair) and the cue bell (after its fade).
    var sounds: SoundsPlugin
    var ambient: AmbientPlugin
    var ambientBus: OutputBus
    /// Set by the JACK client before each period: JACK is freewheeling (faster-than-real-time
    /// export: light and haptics are silent), and how much later than the light the sound
    /// reaches the listener (the audio ports' playback latency less the light port's).
    public var freewheeling = false
    /// Beats from outside (Ableton Link) for the LED and haptic beat, in place of beat_in's while
    /// in force; set before each `process` (at most 8 a period).
    public var externalBeatsInForce = false
    public var externalBeatCount = 0
    var externalBeats = InlineArray<8, Int64>(repeating: 0)
    public var avLatencyFrames = 0
    public var avHapticLatencyFrames = 0
    var fadeInFrames: Int
    var pending = PendingCommands(capacity: 512, filler: Command(frame: 0, .stop(fadeFrames: 0)))
    var pendingAmbient = PendingAmbientEvents(capacity: 128, filler: AmbientEvent(frame: 0, kind: .settings))
    var stopping = false
    /// The panic state applied (the request is `status.panicRequested`).
    var panicked = false
    let panicFadeFrames: Int
    /// The audio pairs are rendered and limited here, and only limited samples are copied to
    /// the port buffers, which another client may read at any moment (around an xrun): the
    /// ceiling holds in every sample anyone can see. Four buffers of `maximumChunk` frames.
    let mix: UnsafeMutablePointer<Float>
    let commands: UnsafePointer<CommandRing>
    let status: UnsafePointer<EngineStatus>
    let beatEvents: UnsafePointer<BeatEventRing>
    let patterns: UnsafePointer<PatternSlots>
    let ambientEvents: UnsafePointer<AmbientEventRing>
    /// Hosted plugins on the buses, before their ceiling (see Inserts/).
    var inserts = InsertRack()

    init(sampleRate: Double, values: ParameterValues, commands: UnsafePointer<CommandRing>,
         status: UnsafePointer<EngineStatus>, beatEvents: UnsafePointer<BeatEventRing>,
         patterns: UnsafePointer<PatternSlots>, ambientEvents: UnsafePointer<AmbientEventRing>,
         ambientQuality: FDNReverb.Quality) {
        self.sampleRate = sampleRate
        self.ambientEvents = ambientEvents
        self.commands = commands
        self.status = status
        self.beatEvents = beatEvents
        self.patterns = patterns
        let offsets = Self.parameterTable.pluginOffsets
        let e = offsets[0], b = offsets[1], l = offsets[2], h = offsets[3], x = offsets[4], s = offsets[5], m = offsets[6]
        entrainmentOffset = e
        beatOffset = b
        lightOffset = l
        hapticOffset = h
        mixOffset = x
        soundsOffset = s
        masterOffset = m
        entrainment = EntrainmentPlugin(sampleRate: sampleRate,
                                        values: Array(values.storage[e..<(e + EntrainmentPlugin.descriptor.parameters.count)]))
        beat = BeatAnalysisPlugin(sampleRate: sampleRate,
                                  values: Array(values.storage[b..<(b + BeatAnalysisPlugin.descriptor.parameters.count)]))
        light = LightPlugin(sampleRate: sampleRate,
                            values: Array(values.storage[l..<(l + LightPlugin.descriptor.parameters.count)]))
        light.follower.voice = entrainment.voices
        haptic = HapticPlugin(sampleRate: sampleRate,
                              values: Array(values.storage[h..<(h + HapticPlugin.descriptor.parameters.count)]))
        haptic.follower.voice = entrainment.voices
        mixInput = MixPlugin(sampleRate: sampleRate, values: Array(values.storage[x..<(x + MixPlugin.descriptor.parameters.count)]))
        sounds = SoundsPlugin(sampleRate: sampleRate, values: Array(values.storage[s..<(s + SoundsPlugin.descriptor.parameters.count)]))
        entrainmentBus = OutputBus(sampleRate: sampleRate, ceilingDecibels: values[m + MasterParameters.ceiling])
        fadeInFrames = Int(values[m + MasterParameters.fadeIn] * sampleRate)
        entrainmentBus.fade(to: 1, frames: fadeInFrames)
        ambient = AmbientPlugin(sampleRate: sampleRate, quality: ambientQuality)
        ambientBus = OutputBus(sampleRate: sampleRate, ceilingDecibels: values[m + MasterParameters.ceiling])
        haptic.ceiling = entrainmentBus.limiter.ceilingGain
        panicFadeFrames = Int(EngineHost.panicFadeSeconds * sampleRate)
        mix = .allocate(capacity: 4 * Self.maximumChunk)
        mix.initialize(repeating: 0, count: 4 * Self.maximumChunk)
    }

    func deallocate() {
        entrainment.deallocate()
        entrainmentBus.deallocate()
        beat.deallocate()
        light.deallocate()
        haptic.deallocate()
        mixInput.deallocate()
        sounds.deallocate()
        ambient.deallocate()
        ambientBus.deallocate()
        inserts.deallocate()
        mix.deallocate()
        pending.deallocate()
        pendingAmbient.deallocate()
    }

    /// The host lost `frames` of input before this period (JACK skipped our process callback
    /// for them: an xrun): the beat analysis carries its tempo and phase over them instead of
    /// stalling. Engine frames do not jump (commands, sessions and outputs count rendered frames).
    public mutating func inputLost(frames: Int) {
        guard frames > 0 else { return }
        beat.inputLost(frames: frames)
    }

    /// One period from the host (JACK or the offline renderer): the FFT edge of the beat analysis,
    /// which calls FFTW and so cannot be compiler-checked, then the checked render. Periods longer
    /// than `maximumChunk` are taken in pieces.
    public mutating func process(_ io: PortBuffers, frames: Int) {
        var done = 0
        beat.beginPeriod()
        while done < frames {
            let n = min(Self.maximumChunk, frames - done)
            var chunk = io
            if done > 0 {
                for i in 0..<ClientPort.count { chunk.buffers[i] = io.buffers[i].map { $0 + done } }
            }
            adoptInserts()
            // No beat_in buffer at all (an offline render of the outputs) is no input, not silence
            // to analyse: the analysis of silence finds nothing, so skipping it changes no output.
            if beat.active, let input = chunk[.beatIn] { beat.spectrum.analyse(input, frames: n) }
            render(chunk, frames: n)
            finishInserts(chunk, frames: n)
            done += n
        }
    }

    /// Render one period. Commands due inside it apply on their exact frame.
    ///
    /// The compile-time real-time proof: with @_noLocks the compiler rejects any allocation,
    /// lock, retain/release or opaque call in `render` and everything it reaches (every plugin
    /// and kernel). Unoptimised builds compile file by file and cannot see across files, so the
    /// attribute is applied in optimised builds, which `make run` and `make test` always make.
    #if REALTIME_CHECKED
    @_noLocks
    public mutating func render(_ io: PortBuffers, frames: Int) { renderPeriod(io, frames: frames) }
    #else
    public mutating func render(_ io: PortBuffers, frames: Int) { renderPeriod(io, frames: frames) }
    #endif

    @inline(__always)
    mutating func renderPeriod(_ io: PortBuffers, frames: Int) {
        followPanicRequest()
        takeCommandsFromRing()
        beat.analyse(start: frame, frames: frames, ring: beatEvents)
        prepareLightAndTouch()
        var start = 0
        while start < frames {
            let now = frame + Int64(start)
            while let command = pending.first, command.frame <= now {
                apply(command, now: now)
                pending.removeFirst()
            }
            var end = frames
            if let next = pending.first, next.frame < frame + Int64(frames) { end = Int(next.frame - frame) }
            renderRange(io, start..<end)
            start = end
        }
        light.endPeriod()
        haptic.endPeriod()
        frame += Int64(frames)
        publishStatus(frames: frames)
    }

    /// Hand light and haptics this period's beats, its clock and how long to wait for the sound
    /// (JACK's latency difference plus the output limiter's look-ahead, which the sound waits out).
    @inline(__always)
    mutating func prepareLightAndTouch() {
        for k in 0..<beat.eventCount where beat.events[k].kind == .beat {
            if !externalBeatsInForce {
                light.queueBeat(at: beat.events[k].frame)
                haptic.queueBeat(at: beat.events[k].frame)
            }
            status.pointee.lastBeatFrame.store(Int(beat.events[k].frame), ordering: .relaxed)
            status.pointee.lastBeatCount.store(Int(beat.events[k].count), ordering: .relaxed)
        }
        for k in 0..<externalBeatCount where externalBeatsInForce {
            light.queueBeat(at: externalBeats[k])
            haptic.queueBeat(at: externalBeats[k])
        }
        light.periodStart = frame
        light.freewheeling = freewheeling
        let plugins = status.pointee.insertLatency.load(ordering: .relaxed)  // hosted plugins delay the sound too
        light.latencyFrames = avLatencyFrames + entrainmentBus.limiter.latency + plugins
        haptic.periodStart = frame
        haptic.freewheeling = freewheeling
        haptic.latencyFrames = avHapticLatencyFrames + entrainmentBus.limiter.latency + plugins + light.offsetFrames
    }

    /// One of this period's outside beats (see `externalBeatsInForce`).
    public mutating func queueExternalBeat(at frame: Int64) {
        guard externalBeatCount < 8 else { return }
        externalBeats[externalBeatCount] = frame
        externalBeatCount += 1
    }

    /// Panic or resume as the control side asks, from this period's first frame: light and
    /// haptics dark at once, the audio pairs through a short anti-click fade (resume: the fade-in).
    @inline(__always)
    mutating func followPanicRequest() {
        let wanted = status.pointee.panicRequested.load(ordering: .relaxed)
        guard wanted != panicked else { return }
        panicked = wanted
        let frames = wanted ? panicFadeFrames : fadeInFrames
        entrainmentBus.mute(wanted, frames: frames)
        ambientBus.mute(wanted, frames: frames)
        light.blackout = wanted
        haptic.blackout = wanted
        status.pointee.panicked.store(wanted, ordering: .relaxed)
    }

    @inline(__always)
    mutating func takeCommandsFromRing() {
        while !pending.isFull, let command = commands.pointee.peek() {
            pending.insert(command)
            commands.pointee.pop()
        }
    }

    @inline(__always)
    mutating func renderRange(_ io: PortBuffers, _ range: Range<Int>) {
        // Light and touch first: they read voice 1 as it stands at the range's first frame.
        light.render(io, range)
        haptic.render(io, range)
        if let l = io[.entrainmentL], let r = io[.entrainmentR] {
            var inside = io
            inside[.entrainmentL] = mix
            inside[.entrainmentR] = mix + Self.maximumChunk
            entrainment.render(inside, range)
            mixInput.render(inside, range)
            let cue = sounds.renderWithCue(inside, range)
            if inserts.entrainment == nil {
                entrainmentBus.process(mix, mix + Self.maximumChunk, cue: cue, into: l, r, range)
            } else {
                entrainmentBus.fadeInPlace(mix, mix + Self.maximumChunk, range)  // the chain and ceiling follow
                if let cue { for i in range { mix[i] += cue[i]; mix[Self.maximumChunk + i] += cue[i] } }
            }
        }
        renderAmbient(io[.ambientL], io[.ambientR], range)
    }

    /// The ambient plugin, split further at its own events' frames (taken off their ring in
    /// frame order, so an event for an earlier frame than one already queued still lands on its
    /// own). Without ports (an offline render of entrainment only) its events still apply, so
    /// its state stays true.
    @inline(__always)
    mutating func renderAmbient(_ left: UnsafeMutablePointer<Float>?, _ right: UnsafeMutablePointer<Float>?,
                                _ range: Range<Int>) {
        while !pendingAmbient.isFull, let event = ambientEvents.pointee.peek() {
            pendingAmbient.insert(event)
            ambientEvents.pointee.pop()
        }
        let mixL = mix + 2 * Self.maximumChunk, mixR = mix + 3 * Self.maximumChunk
        var start = range.lowerBound
        while start < range.upperBound {
            let now = frame + Int64(start)
            while let event = pendingAmbient.first, event.frame <= now {
                ambient.apply(event, bus: &ambientBus)
                pendingAmbient.removeFirst()
            }
            var end = range.upperBound
            if let next = pendingAmbient.first, next.frame < frame + Int64(end) { end = Int(next.frame - frame) }
            if let left, let right {
                if ambient.running {
                    ambient.render(mixL, mixR, start..<end)
                    if inserts.ambient == nil {
                        ambientBus.process(mixL, mixR, into: left, right, start..<end)
                    } else {
                        ambientBus.fadeInPlace(mixL, mixR, start..<end)
                    }
                    ambient.endRange(bus: ambientBus)
                } else if inserts.ambient == nil {
                    for i in start..<end { left[i] = 0; right[i] = 0 }
                } else {
                    for i in start..<end { mixL[i] = 0; mixR[i] = 0 }  // silence through the chain: tails ring out
                }
            }
            start = end
        }
    }

    /// Apply `command`, taken on engine frame `now` (its own frame, or later when it was due
    /// before this period or has none).
    mutating func apply(_ command: Command, now: Int64) {
        switch command.action {
        case .set(let parameter, let value, let glideFrames, let exponential):
            let index = Int(parameter), frames = Int(glideFrames)
            if index >= masterOffset {
                setMaster(index - masterOffset, value)
            } else if index >= soundsOffset {
                sounds.set(index - soundsOffset, to: value, glideFrames: frames, exponential: exponential)
            } else if index >= mixOffset {
                mixInput.set(index - mixOffset, to: value, glideFrames: frames, exponential: exponential)
            } else if index >= hapticOffset {
                haptic.set(index - hapticOffset, to: value, glideFrames: frames, exponential: exponential)
            } else if index >= lightOffset {
                light.set(index - lightOffset, to: value, glideFrames: frames, exponential: exponential)
            } else if index >= beatOffset {
                beat.set(index - beatOffset, to: value, glideFrames: frames, exponential: exponential)
            } else {
                entrainment.set(index - entrainmentOffset, to: value, glideFrames: frames, exponential: exponential)
            }
        case .stop(let fadeFrames):
            let frames = Int(fadeFrames)
            // The client's stop fades every audio pair; the ambient engine keeps its own
            // play/stop state, so a later /ambient/play still works.
            stopping = true
            entrainmentBus.fade(to: 0, frames: frames)
            sounds.ringEndCue()
            ambientBus.fade(to: 0, frames: frames)
            light.outputFade.move(to: 0, frames: frames)
            haptic.outputFade.move(to: 0, frames: frames)
        case .start(let fadeFrames):
            let frames = Int(fadeFrames)
            stopping = false
            status.pointee.stopped.store(false, ordering: .relaxed)
            entrainmentBus.fade(to: 1, frames: frames)
            light.outputFade.move(to: 1, frames: frames)
            haptic.outputFade.move(to: 1, frames: frames)
            if ambient.running && !ambient.stopping { ambientBus.fade(to: 1, frames: frames) }
        case .pattern(let slot, let ticks):
            startPattern(slot: Int(slot), ticks: Int(ticks), at: command.startFrame(takenAt: now))
        case .insertChain, .insertControl, .insertHeard:
            applyInsert(command)
        }
    }

    /// Play the pattern in `slot` from `frame` (slot 0xFFFF: stop), for light and touch alike.
    mutating func startPattern(slot: Int, ticks: Int, at frame: Int64) {
        var playback = PatternPlayback()
        if slot < PatternSlots.count {
            playback.intensity = patterns.pointee.intensity + slot * PatternSlots.capacity
            playback.sharpness = patterns.pointee.sharpness + slot * PatternSlots.capacity
            playback.start = frame
            playback.ticks = min(ticks, PatternSlots.capacity)
            playback.framesPerTick = sampleRate / PatternSlots.ticksPerSecond
        }
        light.patternPlayback = playback
        haptic.pattern = playback
        patterns.pointee.playing.store(slot < PatternSlots.count ? slot : -1, ordering: .relaxed)
        patterns.pointee.applied.add(1, ordering: .releasing)
    }

    mutating func setMaster(_ index: Int, _ value: Double) {
        switch index {
        case MasterParameters.ceiling:
            entrainmentBus.limiter.setCeiling(decibels: value)
            ambientBus.limiter.setCeiling(decibels: value)
            haptic.ceiling = entrainmentBus.limiter.ceilingGain  // on the same frame as the audio
        case MasterParameters.fadeIn: fadeInFrames = Int(value * sampleRate)
        default: break  // fade-out length travels with the stop command
        }
    }

    @inline(__always)
    mutating func publishStatus(frames: Int) {
        status.pointee.framesRendered.store(Int(frame), ordering: .relaxed)
        status.pointee.publishPeaks(left: entrainmentBus.peakLeft, right: entrainmentBus.peakRight)
        entrainmentBus.peakLeft = 0
        entrainmentBus.peakRight = 0
        status.pointee.publishBeat(level: beat.loudest, bpm: Float(beat.tracker.bpm), confidence: beat.tracker.confidence,
                                   dropped: beat.dropped)
        beat.loudest = 0
        status.pointee.publishBands(beat.bands.levels)
        status.pointee.lightThermalState.store(light.thermal.state.rawValue, ordering: .relaxed)
        if stopping && entrainmentBus.isSilent && !sounds.cueRinging && (ambientBus.isSilent || !ambient.running) {
            status.pointee.stopped.store(true, ordering: .releasing)
        }
    }
}
