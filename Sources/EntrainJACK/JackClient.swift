import CJack
import EntrainCore
import EntrainEngine
import Foundation
import Logging
import Synchronization

/// The JACK side of entrain: one client with the documented ports. It only forwards JACK's
/// callbacks; all audio work happens in the engine the process context points at.
// @unchecked: the engines it holds and its closed flag are behind `held`; the process context is
// shared with JACK's threads through atomics only; the client handle is JACK's (thread-safe).
public final class JackClient: @unchecked Sendable {
    public struct Options {
        public var name = "entrain"
        /// nil = the default server ($JACK_DEFAULT_SERVER or "default").
        public var server: String?
        /// LED ports to register, 1…8 (led, led_2 … led_8).
        public var ledPorts = 1
        /// Register haptic_intensity and haptic_sharpness CV ports too.
        public var hapticCV = false
        public init(name: String = "entrain", server: String? = nil, ledPorts: Int = 1, hapticCV: Bool = false) {
            self.name = name
            self.server = server
            self.ledPorts = ledPorts
            self.hapticCV = hapticCV
        }

        func wants(_ port: ClientPort) -> Bool {
            if let n = port.ledNumber { return n <= ledPorts }
            if port == .hapticIntensity || port == .hapticSharpness { return hapticCV }
            return true
        }
    }

    public let name: String
    let client: OpaquePointer
    let context: UnsafeMutablePointer<ProcessContext>
    /// Written while registering in init, only read afterwards.
    private var portHandles: [ClientPort: OpaquePointer] = [:]
    private let logger: Logger
    /// The engines the client holds, and whether it is closed: the run loop, OSC handlers and
    /// status readers may reach the client from different threads.
    private struct Held {
        var host: EngineHost?
        var retired: [EngineHost] = []
        var closed = false
    }
    private let held = Mutex(Held())

    /// Opens the client and registers its ports; never starts a server.
    public init(options: Options, logger: Logger) throws {
        self.logger = logger
        var status = jack_status_t(rawValue: 0)
        JackMessages.collect()
        let opened: OpaquePointer? = options.name.withCString { name in
            if let server = options.server {
                return server.withCString { entrain_jack_client_open(name, JackNoStartServer, &status, $0) }
            }
            return entrain_jack_client_open(name, JackNoStartServer, &status, nil)
        }
        for line in JackMessages.take() { logger.debug("libjack: \(line)") }
        // On failure libjack keeps talking as it unwinds: keep collecting (nobody reads it).
        guard let client = opened else { throw JackError.cannotOpen(status: status.rawValue, server: Self.serverName(options.server)) }
        JackMessages.passThrough()
        self.client = client
        name = String(cString: jack_get_client_name(client))
        if status.rawValue & JackNameNotUnique.rawValue != 0 {
            logger.notice("a client named '\(options.name)' exists; JACK named this one '\(name)'")
        }
        context = .allocate(capacity: 1)
        context.initialize(to: ProcessContext())
        context.pointee.client = client
        context.pointee.sampleRate.store(Int(jack_get_sample_rate(client)), ordering: .relaxed)
        context.pointee.bufferSize.store(Int(jack_get_buffer_size(client)), ordering: .relaxed)
        do {
            try registerPorts(options)
        } catch {
            jack_client_close(client)
            context.deinitialize(count: 1).deallocate()
            throw error
        }
        installCallbacks()
    }

    deinit {
        close()
        context.deinitialize(count: 1).deallocate()
    }

    public var sampleRate: Double { Double(context.pointee.sampleRate.load(ordering: .relaxed)) }
    public var bufferSize: Int { context.pointee.bufferSize.load(ordering: .relaxed) }
    public var xruns: Int { context.pointee.xruns.load(ordering: .relaxed) }
    public var serverGone: Bool { context.pointee.serverGone.load(ordering: .relaxed) }
    /// DSP load of the whole JACK graph, percent.
    public var cpuLoad: Float { held.withLock { $0.closed } ? 0 : jack_cpu_load(client) }
    public var playbackLatency: Int { context.pointee.playbackLatency.load(ordering: .relaxed) }

    /// The engine frame that plays at `unixTime` (seconds, CLOCK_REALTIME), from the latest cycle's
    /// start at the nominal sample rate; nil before the first cycle. JACK's clock is monotonic,
    /// so the wall-clock offset is read now, next to jack_get_time.
    public func engineFrame(atUnixTime unixTime: Double) -> Int64? {
        guard let anchor = context.pointee.anchor() else { return nil }
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let jackNow = Double(jack_get_time())
        let wallNow = Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
        let jackMicros = unixTime * 1e6 - (wallNow - jackNow)
        let offset = (jackMicros - Double(anchor.micros)) * sampleRate / 1e6
        return anchor.frame + Int64(offset.rounded())
    }

    /// When the sample at `frame` of beat_in's timeline reached the system: the frame's place in
    /// its cycle, less beat_in's capture latency (what the sound card and the graph in front of
    /// us add). Unix seconds; nil before the first cycle.
    public func unixTime(ofInputFrame frame: Int64) -> Double? {
        guard let anchor = context.pointee.anchor() else { return nil }
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let jackNow = Double(jack_get_time())
        let wallNow = Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
        let frames = Double(frame - anchor.frame - Int64(captureLatency))
        return (Double(anchor.micros) + frames * 1e6 / sampleRate + (wallNow - jackNow)) / 1e6
    }

    /// Playback latency of the led port in frames (min of the range): a fixture's own path.
    public var lightLatency: Int { context.pointee.lightLatency.load(ordering: .relaxed) }

    /// Capture latency of beat_in in frames (max of the range), from the latency callback.
    public var captureLatency: Int { context.pointee.captureLatency.load(ordering: .relaxed) }

    /// The full JACK name of one of our ports ("entrain:entrainment_L").
    public func fullName(of port: ClientPort) -> String { "\(name):\(port.name)" }

    /// Start processing with `host`'s engine.
    public func activate(host: EngineHost) throws {
        held.withLock { $0.host = host }
        context.pointee.engine = host.engine
        guard jack_activate(client) == 0 else { throw JackError.cannotActivate }
    }

    /// Swap in a new engine (prepared off the process thread) while running. The old host is
    /// kept until the process thread has let go of it.
    public func replace(with newHost: EngineHost) {
        held.withLock { held in
            if let old = held.host { held.retired.append(old) }
            held.host = newHost
        }
        context.pointee.incoming.store(newHost.engine, ordering: .releasing)
    }

    /// Free hosts the process thread has handed back. Call from the control loop.
    public func collectRetiredEngines() {
        guard let retired = context.pointee.retired.exchange(nil, ordering: .acquiring) else { return }
        held.withLock { $0.retired.removeAll { $0.engine == retired } }
    }

    /// Connect the audio outputs to the first two physical playback ports. Off under NSM,
    /// where the session manager owns connections.
    public func autoconnect() throws {
        if ProcessInfo.processInfo.environment["NSM_URL"] != nil {
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
        let code = jack_connect(client, source, destination)
        guard code == 0 || code == EEXIST else { throw JackError.cannotConnect(from: source, to: destination, code: code) }
    }

    /// Names of ports matching JACK port flags (and a type, if given).
    public func ports(flags: UInt32, type: String? = nil, pattern: String? = nil) -> [String] {
        guard let list = jack_get_ports(client, pattern, type, UInt(flags)) else { return [] }
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
        guard !held.withLock({ held in defer { held.closed = true }; return held.closed }) else { return }
        if !serverGone {
            jack_deactivate(client)
            for (_, handle) in portHandles { jack_remove_properties(client, jack_port_uuid(handle)) }
        }
        jack_client_close(client)
        held.withLock { $0 = Held(closed: true) }
    }

    // MARK: - Set-up

    private func registerPorts(_ options: Options) throws {
        for port in ClientPort.allCases where options.wants(port) {
            let flags = (port.direction == .output ? JackPortIsOutput.rawValue : JackPortIsInput.rawValue)
                | JackPortIsTerminal.rawValue
            guard let handle = jack_port_register(client, port.name, JACK_DEFAULT_AUDIO_TYPE, UInt(flags), 0) else {
                throw JackError.cannotRegister(port: port.name)
            }
            portHandles[port] = handle
            context.pointee.ports[port.rawValue] = handle
            setMetadata(handle, port)
        }
    }

    private func setMetadata(_ handle: OpaquePointer, _ port: ClientPort) {
        let uuid = jack_port_uuid(handle)
        func set(_ key: UnsafePointer<CChar>?, _ value: String, type: String = "text/plain") {
            if jack_set_property(client, uuid, key, value, type) != 0 {
                logger.warning("could not set JACK metadata \(String(cString: key!)) on \(port.name)")
            }
        }
        set(JACK_METADATA_PRETTY_NAME, port.prettyName)
        set(JACK_METADATA_PORT_GROUP, port.group)
        set(JACK_METADATA_ORDER, String(port.rawValue), type: "http://www.w3.org/2001/XMLSchema#integer")
        if port.signal == .controlVoltage { set(JACK_METADATA_SIGNAL_TYPE, "CV") }
    }

    private func installCallbacks() {
        let arg = UnsafeMutableRawPointer(context)
        jack_set_process_callback(client, { frames, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.process(frames: frames)
            return 0
        }, arg)
        jack_set_thread_init_callback(client, { _ in entrain_flush_denormals() }, arg)
        jack_set_xrun_callback(client, { arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.xruns.add(1, ordering: .relaxed)
            return 0
        }, arg)
        jack_set_buffer_size_callback(client, { frames, arg in
            // The engine renders any period length; only remember it for the status line.
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.bufferSize.store(Int(frames), ordering: .relaxed)
            return 0
        }, arg)
        jack_set_sample_rate_callback(client, { rate, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.sampleRate.store(Int(rate), ordering: .relaxed)
            return 0
        }, arg)
        jack_on_info_shutdown(client, { _, _, arg in
            // Only a flag: closing the client here is forbidden; the control loop reacts.
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.serverGone.store(true, ordering: .relaxed)
        }, arg)
        jack_set_freewheel_callback(client, { starting, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.freewheeling.store(starting != 0, ordering: .relaxed)
        }, arg)
        jack_set_latency_callback(client, { mode, arg in
            let context = arg!.assumingMemoryBound(to: ProcessContext.self)
            var range = jack_latency_range_t()
            if mode == JackPlaybackLatency, let port = context.pointee.ports[ClientPort.entrainmentL.rawValue] {
                jack_port_get_latency_range(port, JackPlaybackLatency, &range)
                context.pointee.playbackLatency.store(Int(range.max), ordering: .relaxed)
                if let led = context.pointee.ports[ClientPort.led.rawValue] {
                    jack_port_get_latency_range(led, JackPlaybackLatency, &range)
                    context.pointee.lightLatency.store(Int(range.min), ordering: .relaxed)
                }
                if let haptic = context.pointee.ports[ClientPort.haptic.rawValue] {
                    jack_port_get_latency_range(haptic, JackPlaybackLatency, &range)
                    context.pointee.hapticLatency.store(Int(range.min), ordering: .relaxed)
                }
            } else if mode == JackCaptureLatency, let port = context.pointee.ports[ClientPort.beatIn.rawValue] {
                jack_port_get_latency_range(port, JackCaptureLatency, &range)
                context.pointee.captureLatency.store(Int(range.max), ordering: .relaxed)
            }
        }, arg)
    }
}

extension JackClient: AudioBackend {}
