import CJack
import EntrainCore
import EntrainEngine
import Foundation
import Logging
import Synchronization

/// The JACK side of entrain: one client with the documented ports. It only forwards JACK's
/// callbacks; all audio work happens in the engine the process context points at.
///
/// The client outlives its server: when the server goes away the handle is closed from the
/// control side (never from JACK's shutdown callback), and `reopen()`/`restart()` register the
/// same ports, metadata and connections on a server of the same name when it is back.
// @unchecked: the JACK handle, the engines it holds and the remembered connections are behind
// `held` (JACK's callbacks never take it); the process context is shared with JACK's threads
// through atomics only, and its plain fields are written only while no client is active.
public final class JackClient: @unchecked Sendable {
    public struct Options: Sendable {
        public var name = "entrain"
        /// nil = the default server ($JACK_DEFAULT_SERVER or "default").
        public var server: String?
        /// LED ports to register, 1…8 (led, led_2 … led_8).
        public var ledPorts = 1
        /// Register haptic_intensity and haptic_sharpness CV ports too.
        public var hapticCV = false
        /// Under a session manager: connections are its job (no auto-connect, none restored).
        public var managed = false
        /// Register midi_out and send MIDI clock and beat/onset notes from the beats found on beat_in.
        public var midi: BeatMIDISettings?
        /// The MIDI clock follows JACK transport (when it rolls with bars and beats) instead of beat_in.
        public var midiFollowsTransport = false
        /// The MIDI clock follows Ableton Link's session while following one (--midi-clock-source link).
        public var midiFollowsLink = false
        /// Act as JACK's timebase master (if none is) with bars and beats at the detected tempo.
        public var timebase = false
        /// Register midi_in: notes and control changes for the address space.
        public var midiIn = false
        public init(name: String = "entrain", server: String? = nil, ledPorts: Int = 1, hapticCV: Bool = false, managed: Bool = false,
                    midi: BeatMIDISettings? = nil, midiFollowsTransport: Bool = false, timebase: Bool = false, midiIn: Bool = false,
                    midiFollowsLink: Bool = false) {
            self.midiFollowsLink = midiFollowsLink
            self.midiIn = midiIn
            self.midi = midi
            self.midiFollowsTransport = midiFollowsTransport
            self.timebase = timebase
            self.name = name
            self.server = server
            self.ledPorts = ledPorts
            self.hapticCV = hapticCV
            self.managed = managed
        }

        func wants(_ port: ClientPort) -> Bool {
            if let n = port.ledNumber { return n <= ledPorts }
            if port == .hapticIntensity || port == .hapticSharpness { return hapticCV }
            return true
        }
    }

    public let name: String
    let options: Options
    let context: UnsafeMutablePointer<ProcessContext>
    let logger: Logger
    /// The JACK handle and what lives with it; the run loop, OSC handlers and status readers
    /// reach the client from different threads.
    struct Held {
        var client: OpaquePointer?
        var portHandles: [ClientPort: OpaquePointer] = [:]
        var host: EngineHost?
        var retired: [EngineHost] = []
        var closed = false
        var active = false
        /// Our ports' connections as last seen while the server was up (full names of the far ends).
        var connections: [ConnectablePort: [String]] = [:]
        /// Connections to restore after a return whose far end is not back yet, and until when to try.
        var pending: [(ConnectablePort, String)] = []
        var pendingUntil = Date.distantPast
        /// When JACK last said the graph's connections changed (re-read a moment later).
        var connectionsChangedAt: Date?
        /// The process callback's slowest period in the last rolled-over second, and since start.
        var lastSecondSlowest: PeriodTime?
        var slowestSinceStart: PeriodTime?
        /// Ableton Link's session, when attached (the process context reads its pointer).
        var link: LinkSession?
    }
    let held: Mutex<Held>

    /// Opens the client and registers its ports; never starts a server.
    public init(options: Options, logger: Logger) throws {
        self.logger = logger
        self.options = options
        var status = jack_status_t(rawValue: 0)
        JackMessages.collect()
        let opened = Self.open(options.name, server: options.server, exact: false, status: &status)
        for line in JackMessages.take() { logger.debug("libjack: \(line)") }
        // On failure libjack keeps talking as it unwinds: keep collecting (nobody reads it).
        guard let client = opened else { throw JackError.cannotOpen(status: status.rawValue, server: Self.serverName(options.server)) }
        JackMessages.passThrough()
        name = String(cString: jack_get_client_name(client))
        if status.rawValue & JackNameNotUnique.rawValue != 0 {
            logger.notice("a client named '\(options.name)' exists; JACK named this one '\(name)'")
        }
        context = .allocate(capacity: 1)
        context.initialize(to: ProcessContext())
        held = Mutex(Held())
        do {
            var handles: [ClientPort: OpaquePointer] = [:]
            try setUp(client, handles: &handles)
            held.withLock {
                $0.client = client
                $0.portHandles = handles
            }
        } catch {
            jack_client_close(client)
            context.deinitialize(count: 1).deallocate()
            throw error
        }
    }

    deinit {
        close()
        context.deinitialize(count: 1).deallocate()
    }

    static func open(_ name: String, server: String?, exact: Bool, status: inout jack_status_t) -> OpaquePointer? {
        let flags = jack_options_t(rawValue: JackNoStartServer.rawValue | (exact ? JackUseExactName.rawValue : 0))
        return name.withCString { name in
            if let server { return server.withCString { entrain_jack_client_open(name, flags, &status, $0) } }
            return entrain_jack_client_open(name, flags, &status, nil)
        }
    }

    public var sampleRate: Double { Double(context.pointee.sampleRate.load(ordering: .relaxed)) }
    public var bufferSize: Int { context.pointee.bufferSize.load(ordering: .relaxed) }
    public var xruns: Int { context.pointee.xruns.load(ordering: .relaxed) }
    public var isFreewheeling: Bool { context.pointee.freewheeling.load(ordering: .relaxed) }
    /// How many times the server came back after going away.
    public var returns: Int { context.pointee.returns.load(ordering: .relaxed) }
    /// DSP load of the whole JACK graph, percent (0 while the server is gone).
    public var cpuLoad: Float {
        held.withLock { held in
            guard let client = held.client, !serverGone else { return 0 }
            return jack_cpu_load(client)
        }
    }
    public var playbackLatency: Int { context.pointee.playbackLatency.load(ordering: .relaxed) }

    /// The engine frame that plays at `unixTime` (seconds, CLOCK_REALTIME), from the latest cycle's
    /// start at the nominal sample rate; nil before the first cycle. JACK's clock is monotonic,
    /// so the wall-clock offset is read now, next to jack_get_time.
    public func engineFrame(atUnixTime unixTime: Double) -> Int64? {
        guard let anchor = context.pointee.anchor() else { return nil }
        let jackMicros = unixTime * 1e6 - Self.wallMinusJackMicros()
        let offset = (jackMicros - Double(anchor.micros)) * sampleRate / 1e6
        return anchor.frame + Int64(offset.rounded())
    }

    /// When the sample at `frame` of beat_in's timeline reached the system: the frame's place in
    /// its cycle, less beat_in's capture latency (what the sound card and the graph in front of
    /// us add). Unix seconds; nil before the first cycle.
    public func unixTime(ofInputFrame frame: Int64) -> Double? {
        guard let anchor = context.pointee.anchor() else { return nil }
        let frames = Double(frame - anchor.frame - Int64(captureLatency))
        return (Double(anchor.micros) + frames * 1e6 / sampleRate + Self.wallMinusJackMicros()) / 1e6
    }

    /// CLOCK_REALTIME less JACK's clock, in µs: the wall clock read between two reads of JACK's,
    /// the tightest pair of a few (a thread preempted between two reads, as happens on a busy
    /// machine, would put its pause into every time tag it maps).
    static func wallMinusJackMicros() -> Double {
        var best = (gap: Double.infinity, offset: 0.0)
        for _ in 0..<4 {
            var ts = timespec()
            let before = Double(jack_get_time())
            clock_gettime(CLOCK_REALTIME, &ts)
            let after = Double(jack_get_time())
            let wall = Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
            if after - before < best.gap { best = (after - before, wall - (before + after) / 2) }
            if best.gap <= 20 { break }
        }
        return best.offset
    }

    /// JACK transport's musical position while it rolls and a timebase master gives bars and
    /// beats: the engine frame of the current cycle's start, the beats counted from bar 1 beat 1
    /// there, and the tempo. Nil when stopped, without a timebase master, or before the first cycle.
    public func transportBeats() -> (frame: Int64, beat: Double, bpm: Double)? {
        guard let anchor = context.pointee.anchor() else { return nil }
        var position = jack_position_t()
        let state = held.withLock { held -> jack_transport_state_t? in
            guard let client = held.client, !serverGone else { return nil }
            return jack_transport_query(client, &position)
        }
        guard state == JackTransportRolling,
              position.valid.rawValue & JackPositionBBT.rawValue != 0, position.beats_per_minute > 0 else { return nil }
        let ticks = position.ticks_per_beat > 0 ? Double(position.tick) / position.ticks_per_beat : 0
        let beat = Double(position.bar - 1) * Double(position.beats_per_bar) + Double(position.beat - 1) + ticks
        let frame = anchor.frame + Int64(((Double(position.usecs) - Double(anchor.micros)) * sampleRate / 1e6).rounded())
        return (frame, beat, position.beats_per_minute)
    }

    /// Playback latency of the led port in frames (min of the range): a fixture's own path.
    public var lightLatency: Int { context.pointee.lightLatency.load(ordering: .relaxed) }

    /// Capture latency of beat_in in frames (max of the range), from the latency callback.
    public var captureLatency: Int { context.pointee.captureLatency.load(ordering: .relaxed) }

    /// What we add ourselves (the output limiter's look-ahead), reported on our outputs.
    public var ownLatency: Int { context.pointee.ownLatency.load(ordering: .relaxed) }

    /// The full JACK name of one of our ports ("entrain:entrainment_L").
    public func fullName(of port: ClientPort) -> String { "\(name):\(port.name)" }

    /// Start processing with `host`'s engine.
    public func activate(host: EngineHost) throws {
        context.pointee.engine = host.engine
        reportOwnLatency(of: host)
        try withJack { held in
            held.host = host
            guard let client = held.client, jack_activate(client) == 0 else { throw JackError.cannotActivate }
            held.active = true
        }
        watchCycles()
    }

    /// Swap in a new engine (prepared off the process thread) while running. The old host is
    /// kept until the process thread has let go of it.
    public func replace(with newHost: EngineHost) {
        held.withLock { held in
            if let old = held.host { held.retired.append(old) }
            held.host = newHost
        }
        context.pointee.incoming.store(newHost.engine, ordering: .releasing)
        reportOwnLatency(of: newHost)
    }

    /// Free hosts the process thread has handed back. Call from the control loop.
    public func collectRetiredEngines() {
        guard let retired = context.pointee.retired.exchange(nil, ordering: .acquiring) else { return }
        held.withLock { $0.retired.removeAll { $0.engine == retired } }
    }

    /// Connect the audio outputs to the first two physical playback ports. Off under NSM,
    /// where the session manager owns connections.
    public func autoconnect() throws {
        if options.managed || ProcessInfo.processInfo.environment["NSM_URL"] != nil {
            logger.notice("running under NSM: not auto-connecting")
            return
        }
        let physical = ports(flags: JackPortIsPhysical.rawValue | JackPortIsInput.rawValue, type: JACK_DEFAULT_AUDIO_TYPE)
        guard physical.count >= 2 else {
            logger.warning("fewer than two physical playback ports; not auto-connecting")
            return
        }
        for (pair, _) in [([ClientPort.entrainmentL, .entrainmentR], 0), ([ClientPort.ambientL, .ambientR], 1)] {
            for (i, port) in pair.enumerated() { try connect(fullName(of: port), to: physical[i]) }
        }
    }

    public func connect(_ source: String, to destination: String) throws {
        let code: Int32 = withJack { held in
            guard let client = held.client, !serverGone else { return ENOTCONN }
            return jack_connect(client, source, destination)
        }
        guard code == 0 || code == EEXIST else { throw JackError.cannotConnect(from: source, to: destination, code: code) }
    }

    /// Names of ports matching JACK port flags (and a type, if given).
    public func ports(flags: UInt32, type: String? = nil, pattern: String? = nil) -> [String] {
        held.withLock { held in
            guard let client = held.client, !serverGone else { return [] }
            return Self.names(jack_get_ports(client, pattern, type, UInt(flags)))
        }
    }

    /// A NULL-terminated list from libjack as strings, freed.
    static func names(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var i = 0
        while let entry = list[i] {
            names.append(String(cString: entry))
            i += 1
        }
        return names
    }

    /// Deactivate, remove our metadata and close. Safe to call twice.
    public func close() {
        stopWatchingCycles()
        held.withLock { $0.link }?.attach(nil)
        held.withLock { held in
            guard !held.closed else { return }
            if let client = held.client {
                if !serverGone, held.active { endMIDI() }
                let leaving = LeavingClient(client: client, context: context, ports: held.portHandles.values + [context.pointee.midiOut, context.pointee.midiIn].compactMap { $0 })
                let gone = serverGone
                leaveServer("our close") {
                    leaving.context.pointee.callGate.enter()  // left held: nothing calls this handle again
                    if !gone {
                        jack_deactivate(leaving.client)
                        for port in leaving.ports { jack_remove_properties(leaving.client, jack_port_uuid(port)) }
                    }
                    jack_client_close(leaving.client)
                }
            }
            held = Held(closed: true)
        }
    }

    /// How much our outputs lag what we render (the limiter's look-ahead), for the latency
    /// callback to report so a DAW recording them can line them up. Set before each activation:
    /// it only changes with the sample rate, and an engine for a new rate is handed over before
    /// the returned server runs us (JACK asks every client for latencies when one activates).
    func reportOwnLatency(of host: EngineHost) {
        context.pointee.ownLatency.store(host.outputLatency, ordering: .relaxed)
    }
}

extension JackClient: AudioBackend {}
