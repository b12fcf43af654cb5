import CJack
import EntrainCore
import EntrainEngine
import Synchronization

/// Everything the process callback touches, in one block of plain memory (no classes, no ARC).
///
/// The engine pointer can be replaced while running (sample-rate change, re-prepare): the
/// control side publishes the new one in `incoming`; the process thread takes it at the start
/// of a period and hands the old one back through `retired` for the control side to free.
struct ProcessContext: ~Copyable {
    // (The anchor below is what maps OSC time tags onto engine frames.)
    var ports = InlineArray<18, OpaquePointer?>(repeating: nil)
    var engine: UnsafeMutablePointer<Engine>?
    let incoming = Atomic<UnsafeMutablePointer<Engine>?>(nil)
    let retired = Atomic<UnsafeMutablePointer<Engine>?>(nil)
    let xruns = Atomic<Int>(0)
    let serverGone = Atomic<Bool>(false)
    let sampleRate = Atomic<Int>(0)
    let bufferSize = Atomic<Int>(0)
    /// Playback latency of entrainment_L in frames (max of the range), from the latency callback.
    let playbackLatency = Atomic<Int>(0)
    /// Playback latency of the led port (min of the range): what a light fixture's path adds.
    let lightLatency = Atomic<Int>(0)
    /// Playback latency of the haptic port (min of the range).
    let hapticLatency = Atomic<Int>(0)
    /// JACK is freewheeling (exporting faster than real time): light and haptics stay dark.
    let freewheeling = Atomic<Bool>(false)
    /// Capture latency of beat_in in frames (max of the range): how long ago its input was heard.
    let captureLatency = Atomic<Int>(0)
    /// Our own delay (the output limiter's look-ahead), reported as our outputs' capture latency.
    let ownLatency = Atomic<Int>(0)
    /// JACK said a connection changed somewhere in the graph; the control side re-reads ours.
    let connectionsChanged = Atomic<Bool>(false)
    let bufferSizeChanges = Atomic<Int>(0)
    /// Times the server came back after going away.
    let returns = Atomic<Int>(0)
    /// Process cycles run (wrapping): the control side sees a server that stopped calling us.
    let cycles = Atomic<Int>(0)
    let silence = CycleWatch()
    /// Our JACK calls that send, apart from the latency callback's (PipeWire's libjack).
    let callGate = JackCallGate()
    /// The slowest process callback (µs) since the control side last took it, and its end frame.
    let slowestMicros = Atomic<Int>(0)
    let slowestFrame = Atomic<Int>(0)
    var client: OpaquePointer?
    /// JACK's frame time at the start of our last cycle and that cycle's length: a later cycle
    /// starting further on means JACK skipped us in between (an xrun), and beat_in's input of
    /// those frames is lost. `cycleEngine` is the engine that cycle ran (a new one starts afresh).
    var lastCycleStart: jack_nframes_t = 0
    var lastCycleFrames: jack_nframes_t = 0
    var cycleEngine: UnsafeMutablePointer<Engine>?
    /// Where the current cycle starts: engine frame (bits) and JACK time (µs), published each
    /// cycle by the process thread.
    let anchorPair = SeqLockedPair()
    /// The frame-to-time line the anchor is read from (the process thread's alone).
    var cycleClock = CycleClock()
    /// Light for senders on other threads (DMX): while `tapping`, light and haptic CV ports
    /// nobody is connected to render into `tapScratch` (registered or not), and each period's
    /// last values go into `tap`.
    let tapping = Atomic<Bool>(false)
    let tap: UnsafeMutablePointer<LightTapRing>
    let tapScratch: UnsafeMutablePointer<Float>
    static var tapScratchFrames: Int { 16_384 }
    /// Pixel outputs (--pixels): while `pixelTapping`, the LED ports render as for `tapping` and
    /// each period's band levels, beat, onset and led value go into `pixelTap`.
    let pixelTapping = Atomic<Bool>(false)
    let pixelTap: UnsafeMutablePointer<PixelTapRing>
    /// MIDI out (--midi-clock): clock and notes from the beat analysis's events, frame-exact.
    var midiOut: OpaquePointer?
    /// Closing: the control side asks (1) for a last period of MIDI that stops the clock and ends
    /// every note; the process thread says it went out (2), and sends nothing after it.
    let midiEnding = Atomic<Int>(0)
    var beatMIDI: BeatMIDI?
    /// Connections made to midi_out (counted by JACK's connect callback) and the count the
    /// process thread has seen: a new one gets Song Position and Continue at the next beat.
    let midiListeners = Atomic<Int>(0)
    var midiListenersSeen = 0
    /// The MIDI clock follows JACK transport's beats instead of beat_in's.
    var midiFollowsTransport = false
    /// The MIDI clock follows Ableton Link's beats while following a session (--midi-clock-source link).
    var midiFollowsLink = false
    /// Ableton Link (when attached): the session's beats while following, commits while leading.
    var link = LinkProcess()
    /// MIDI in (--midi-in): every message queued for the control side.
    var midiIn: OpaquePointer?
    let midiInRing: UnsafeMutablePointer<MIDIInRing>
    var transport = TransportTempo()
    /// --timebase: the transport's bars and beats are ours (aligned with the detected beats).
    var timebaseMaster = false
    /// The phrase grid's beats, published by the control side: a beat's engine frame (bits) and
    /// a beat's length in frames (Double bits).
    let gridPair = SeqLockedPair()
    /// Process side: the grid last read whole, the last beat detected, the clock's own beats.
    var grid = ClockFlywheel.Grid(frame: 0, period: 0)
    var lastDetected = (frame: Int64.min / 2, period: Int64(0), strength: Float(0))
    var flywheel = ClockFlywheel()

    init() {
        tap = .allocate(capacity: 1)
        tap.initialize(to: LightTapRing(capacity: 1024))
        pixelTap = .allocate(capacity: 1)
        pixelTap.initialize(to: PixelTapRing(capacity: 2048))
        tapScratch = .allocate(capacity: LightTapFrame.count * Self.tapScratchFrames)
        tapScratch.initialize(repeating: 0, count: LightTapFrame.count * Self.tapScratchFrames)
        midiInRing = .allocate(capacity: 1)
        midiInRing.initialize(to: MIDIInRing(capacity: 1024))
    }

    deinit {
        tap.deinitialize(count: 1).deallocate()
        pixelTap.deinitialize(count: 1).deallocate()
        tapScratch.deallocate()
        midiInRing.deinitialize(count: 1).deallocate()
    }

    /// Control side: (engine frame, JACK µs) at the start of the latest cycle, nil before the first.
    /// Retries a pair torn by the process thread's write (which takes nanoseconds).
    func anchor() -> (frame: Int64, micros: UInt64)? {
        guard let (frame, micros) = anchorPair.readRetrying() else { return nil }
        return (Int64(bitPattern: frame), micros)
    }

    /// A new handle starts without a cycle: frames cannot be mapped to time until its first one.
    func forgetAnchor() {
        anchorPair.clear()
    }

    /// The latency callback: read what the graph adds after our outputs and before our input,
    /// and (capture mode) report our own delay on our outputs, whose data comes from no input.
    func latencyChanged(mode: jack_latency_callback_mode_t) {
        guard callGate.enterFromCallback() else { return }  // the control side asks again once out
        defer { callGate.leave() }
        var range = jack_latency_range_t()
        if mode == JackPlaybackLatency, let port = ports[ClientPort.entrainmentL.rawValue] {
            jack_port_get_latency_range(port, JackPlaybackLatency, &range)
            playbackLatency.store(Int(range.max), ordering: .relaxed)
            if let led = ports[ClientPort.led.rawValue] {
                jack_port_get_latency_range(led, JackPlaybackLatency, &range)
                lightLatency.store(Int(range.min), ordering: .relaxed)
            }
            if let haptic = ports[ClientPort.haptic.rawValue] {
                jack_port_get_latency_range(haptic, JackPlaybackLatency, &range)
                hapticLatency.store(Int(range.min), ordering: .relaxed)
            }
            reportMixPlaybackLatency()
        } else if mode == JackCaptureLatency {
            if let port = ports[ClientPort.beatIn.rawValue] {
                jack_port_get_latency_range(port, JackCaptureLatency, &range)
                captureLatency.store(Int(range.max), ordering: .relaxed)
            }
            let own = jack_nframes_t(clamping: ownLatency.load(ordering: .relaxed))
            var ours = jack_latency_range_t(min: own, max: own)
            for i in 0..<ClientPort.count where ClientPort(rawValue: i)?.direction == .output {
                if let port = ports[i] { jack_port_set_latency_range(port, JackCaptureLatency, &ours) }
            }
            reportMixCaptureLatency(own: own)
        }
    }

    /// The JACK process callback's body. Its C calls are jack_port_get_buffer and (in the engine's
    /// beat-analysis edge) FFTW's execute; the engine's render is compiler-checked with @_noLocks,
    /// and the run-time probe test covers the rest.
    mutating func process(frames: jack_nframes_t) {
        let began = jack_get_time()
        cycles.wrappingAdd(1, ordering: .relaxed)
        // PipeWire reports its default quantum before activation and may not call the buffer
        // size callback for the quantum it then runs: the period is what this cycle says.
        if bufferSize.load(ordering: .relaxed) != Int(frames) { bufferSize.store(Int(frames), ordering: .relaxed) }
        if let next = incoming.exchange(nil, ordering: .acquiring) {
            retired.store(engine, ordering: .releasing)
            engine = next
        }
        var io = PortBuffers()
        for i in 0..<ClientPort.count {
            if let port = ports[i] {
                // Light and haptic ports nobody is connected to are left out: their plugins then
                // skip the work (the audio pairs always render, so live equals offline).
                if i >= ClientPort.led.rawValue && i != ClientPort.beatIn.rawValue && jack_port_connected(port) == 0 { continue }
                // beat_in with nothing patched in, once the analysis rests: left out, so it costs nothing.
                if i == ClientPort.beatIn.rawValue, let engine, Engine.beatInputResting(engine), jack_port_connected(port) == 0 { continue }
                io.buffers[i] = jack_port_get_buffer(port, frames)?.assumingMemoryBound(to: Float.self)
            }
        }
        let pixels = pixelTapping.load(ordering: .relaxed)
        let tapped = (tapping.load(ordering: .relaxed) || pixels) && Int(frames) <= Self.tapScratchFrames
        if tapped {
            for k in 0..<LightTapFrame.count where io.buffers[LightTapFrame.portIndex(k)] == nil {
                io.buffers[LightTapFrame.portIndex(k)] = tapScratch + k * Self.tapScratchFrames
            }
        }
        if let engine {
            publishAnchor(engineFrame: engine.pointee.frame, frames: frames)
            engine.pointee.freewheeling = freewheeling.load(ordering: .relaxed)
            let audio = playbackLatency.load(ordering: .relaxed)
            engine.pointee.avLatencyFrames = audio - lightLatency.load(ordering: .relaxed)
            engine.pointee.avHapticLatencyFrames = audio - hapticLatency.load(ordering: .relaxed)
            noteLostFrames(engine, frames: frames)
            followLink(engine, frames: frames)
            engine.pointee.process(io, frames: Int(frames))
            leadLink(engine, frames: frames)
            if tapped && tapping.load(ordering: .relaxed) { publishTap(io, last: engine.pointee.frame - 1, at: Int(frames) - 1) }
            if tapped && pixels { publishPixelTap(engine, io, at: Int(frames) - 1) }
            noteDetectedTempo(engine, frames: frames)
            if midiOut != nil { writeMIDI(engine, frames: frames) }
            if midiIn != nil { readMIDI(start: engine.pointee.frame - Int64(frames), frames: frames) }
            notePeriodTime(began: began, endFrame: engine.pointee.frame)
        } else {
            for i in 0..<ClientPort.count where ClientPort(rawValue: i)?.direction == .output {
                if let buffer = io.buffers[i] { buffer.update(repeating: 0, count: Int(frames)) }
            }
        }
    }

    /// Frames JACK's clock moved on between our last cycle's end and this one's start (cycles it
    /// did not run us for), handed to the engine's beat analysis. Wrapping arithmetic on JACK's
    /// 32-bit frame time; a gap over 10 s (a server that stopped, a restart) is not an xrun.
    private mutating func noteLostFrames(_ engine: UnsafeMutablePointer<Engine>, frames: jack_nframes_t) {
        guard let client else { return }
        let start = jack_last_frame_time(client)
        if cycleEngine == engine {
            let lost = start &- (lastCycleStart &+ lastCycleFrames)
            let rate = UInt32(max(0, sampleRate.load(ordering: .relaxed)))
            if lost > 0, lost < 10 &* max(rate, 1) { engine.pointee.inputLost(frames: Int(lost)) }
        }
        cycleEngine = engine
        lastCycleStart = start
        lastCycleFrames = frames
    }

    /// The phrase grid as the control side last published it whole (else the one read before):
    /// one bounded attempt, no waiting on the control side.
    private mutating func readGrid() {
        guard let (frame, period) = gridPair.read() else { return }
        grid = ClockFlywheel.Grid(frame: Int64(bitPattern: frame), period: Double(bitPattern: period))
    }

    /// midi_in's messages of this period onto the ring (a full ring drops them: the control side stalled).
    private func readMIDI(start: Int64, frames: jack_nframes_t) {
        guard let port = midiIn, let buffer = jack_port_get_buffer(port, frames) else { return }
        for i in 0..<jack_midi_get_event_count(buffer) {
            var event = jack_midi_event_t()
            guard jack_midi_event_get(&event, buffer, i) == 0, event.size > 0, let data = event.buffer else { continue }
            let size = min(3, event.size)
            _ = midiInRing.pointee.push(MIDIInEvent(frame: start + Int64(event.time), size: UInt8(size), b0: data[0],
                                                    b1: size > 1 ? data[1] : 0, b2: size > 2 ? data[2] : 0))
        }
    }

    /// The tempo the timebase master publishes, the latest beat's (its frame and length for the
    /// beats' phase), and while the transport rolls, its frame less the engine's at this cycle's start.
    private mutating func noteDetectedTempo(_ engine: UnsafeMutablePointer<Engine>, frames: jack_nframes_t) {
        for k in 0..<Engine.beatEventCount(engine) where Engine.beatEvent(engine, k).kind == .beat && Engine.beatEvent(engine, k).bpm > 0 {
            let event = Engine.beatEvent(engine, k)
            transport.detectedBPM = Double(event.bpm)
            transport.detectedBeat = event.frame
            transport.detectedPeriod = Double(event.framesToNext)
        }
        if link.currentMode == .follow, link.sound.count > 0 {
            // Following Link, the timebase master's beats are the session's.
            transport.detectedBPM = link.tempo
            transport.detectedBeat = link.sound.frames[link.sound.count - 1]
            transport.detectedPeriod = link.framesPerBeat
        }
        guard timebaseMaster, let client else { return }
        var position = jack_position_t()
        let rolling = jack_transport_query(client, &position) == JackTransportRolling
        transport.transportOffset = rolling ? Int64(position.frame) - (engine.pointee.frame - Int64(frames)) : nil
    }

    /// This period's beats and onsets as MIDI on midi_out (jack_midi_* are real-time safe).
    private mutating func writeMIDI(_ engine: UnsafeMutablePointer<Engine>, frames: jack_nframes_t) {
        guard let port = midiOut, let buffer = jack_port_get_buffer(port, frames), beatMIDI != nil else { return }
        jack_midi_clear_buffer(buffer)
        let start = engine.pointee.frame - Int64(frames)
        beatMIDI!.begin(start: start, frames: Int(frames))
        let listeners = midiListeners.load(ordering: .relaxed)
        if listeners != midiListenersSeen {
            midiListenersSeen = listeners
            beatMIDI!.listenerJoined()
        }
        switch midiEnding.load(ordering: .acquiring) {
        case 0: break
        case 1:
            beatMIDI!.closeDown()
            beatMIDI!.finish()
            sendMIDI(buffer)
            midiEnding.store(2, ordering: .releasing)
            return
        default: return
        }
        if midiFollowsTransport, let client {
            let stopped = transport.beats(client, start: start, frames: Int(frames)) { beatMIDI!.take($0) }
            if stopped { beatMIDI!.stop(at: start) }
        }
        let onLink = midiFollowsLink && link.currentMode == .follow
        for k in 0..<Engine.beatEventCount(engine) {
            let event = Engine.beatEvent(engine, k)
            if event.kind == .onset {
                beatMIDI!.take(event)
            } else if !midiFollowsTransport && !onLink {
                lastDetected = (event.frame, Int64(event.framesToNext), event.strength)
            }
        }
        if onLink {
            // Whole session beats; a bar's first (phase 0) may Start a stopped clock.
            let quantum = max(1, Int64(link.quantum.rounded()))
            for k in 0..<link.midi.count {
                let n = link.midi.numbers[k], inBar = ((n % quantum) + quantum) % quantum
                beatMIDI!.take(BeatEvent(kind: .beat, frame: link.midi.frames[k], strength: 1, count: Int32(inBar + 1),
                                         bpm: Float(link.tempo), framesToNext: Int32(link.framesPerBeat.rounded())))
            }
        } else if !midiFollowsTransport {
            // The clock's beats aim at the detected beats while they come; two missed, the phrase grid.
            readGrid()
            let end = start + Int64(frames)
            let detected = end <= lastDetected.frame + 2 * lastDetected.period
            let target = detected ? ClockFlywheel.Grid(frame: lastDetected.frame, period: Double(lastDetected.period))
                                  : grid.period > 0 ? grid : nil
            flywheel.beats(start: start, end: end, target: target, strength: detected ? lastDetected.strength : Float(1),
                           sampleRate: Double(sampleRate.load(ordering: .relaxed))) { beatMIDI!.take($0) }
        }
        beatMIDI!.finish()
        sendMIDI(buffer)
    }

    /// The period's messages from `beatMIDI` into midi_out's buffer.
    private func sendMIDI(_ buffer: UnsafeMutableRawPointer) {
        for k in 0..<beatMIDI!.outCount {
            let m = beatMIDI!.out[k]
            var bytes = (m.b0, m.b1, m.b2)
            _ = withUnsafeBytes(of: &bytes) {
                jack_midi_event_write(buffer, jack_nframes_t(m.offset), $0.baseAddress!.assumingMemoryBound(to: jack_midi_data_t.self), Int(m.size))
            }
        }
    }

    /// The light and touch values at the period's last frame, for the senders.
    private func publishTap(_ io: PortBuffers, last frame: Int64, at offset: Int) {
        var values = InlineArray<10, Float>(repeating: 0)
        for k in 0..<LightTapFrame.count {
            if let buffer = io.buffers[LightTapFrame.portIndex(k)] { values[k] = buffer[offset] }
        }
        _ = tap.pointee.push(LightTapFrame(frame: frame, values: values))
    }

    /// jack_get_cycle_times is real-time safe and gives the filtered start time of this cycle;
    /// the anchor is that on a steadier line (`CycleClock`).
    private mutating func publishAnchor(engineFrame: Int64, frames cycleFrames: jack_nframes_t) {
        guard let client else { return }
        var frames: jack_nframes_t = 0, current: jack_time_t = 0, next: jack_time_t = 0
        var period: Float = 0
        guard jack_get_cycle_times(client, &frames, &current, &next, &period) == 0 else { return }
        let micros = cycleClock.cycle(engineFrame: engineFrame, cycleMicros: current,
                                      sampleRate: Double(sampleRate.load(ordering: .relaxed)), periodFrames: Int(cycleFrames))
        anchorPair.write(UInt64(bitPattern: engineFrame), micros)
    }
}
