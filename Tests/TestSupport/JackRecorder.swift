import CJack
import Foundation
import Synchronization

/// A JACK client that records its inputs into memory: how tests hear what entrain plays.
/// Its process callback only copies into preallocated buffers.
public final class JackRecorder {
    struct State: ~Copyable {
        var ports = InlineArray<4, OpaquePointer?>(repeating: nil)
        var buffers = InlineArray<4, UnsafeMutablePointer<Float>?>(repeating: nil)
        var channels = 0
        var capacity = 0
        /// Playback latency each input declares (what a sound card or a speaker chain would add
        /// after it), so that the client under test sees a known latency on its outputs.
        var latencies = InlineArray<4, Int>(repeating: 0)
        let recording = Atomic<Bool>(false)
        let frames = Atomic<Int>(0)
        /// Every `lateEvery`-th cycle the callback stays `lateMicroseconds` in its callback, reading
        /// its inputs over and over: a deliberately late client that provokes xruns and sees the
        /// connected output buffers at every moment, also while their owner writes them.
        var lateEvery = 0
        var lateMicroseconds: UInt32 = 0
        var cycles = 0
        /// The largest |sample| seen by those repeated reads (Float bits).
        let scannedPeak = Atomic<UInt32>(0)
        let xruns = Atomic<Int>(0)
        /// JACK's frame when each of the first 256 xruns was reported: where a take stops being whole.
        var xrunFrames = InlineArray<256, UInt32>(repeating: 0)
        /// Each recorded cycle's JACK frame and transport frame: where the take lacks frames.
        let log = CycleLog(capacity: 1 << 16)
        /// The peak of the first input's latest cycle (Float bits), recording or not.
        let level = Atomic<UInt32>(0)
        var client: OpaquePointer?
        init() {}
    }

    public let client: OpaquePointer
    public let name: String
    private let state: UnsafeMutablePointer<State>

    public init(server: String, channels: Int, seconds: Double, name: String = "recorder",
                playbackLatencies: [Int] = [], lateEvery: Int = 0, lateSeconds: Double = 0) throws {
        precondition(channels <= 4)
        var status = jack_status_t(rawValue: 0)
        guard let client = entrain_jack_client_open(name, JackNoStartServer, &status, server) else {
            throw TestSupportError.cannotOpenClient
        }
        self.client = client
        self.name = String(cString: jack_get_client_name(client))
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        let capacity = Int(seconds * Double(jack_get_sample_rate(client)))
        state.pointee.channels = channels
        state.pointee.capacity = capacity
        state.pointee.lateEvery = lateEvery
        state.pointee.lateMicroseconds = UInt32(lateSeconds * 1e6)
        jack_set_xrun_callback(client, { arg in
            // The notification thread, not the process thread: it alone writes these.
            let s = arg!.assumingMemoryBound(to: State.self)
            let n = s.pointee.xruns.load(ordering: .relaxed)
            if n < 256, let client = s.pointee.client { s.pointee.xrunFrames[n] = jack_frame_time(client) }
            s.pointee.xruns.store(n + 1, ordering: .releasing)
            return 0
        }, UnsafeMutableRawPointer(state))
        for c in 0..<channels {
            state.pointee.ports[c] = jack_port_register(client, "in_\(c + 1)", JACK_DEFAULT_AUDIO_TYPE,
                                                        UInt(JackPortIsInput.rawValue), 0)
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            buffer.initialize(repeating: 0, count: capacity)
            state.pointee.buffers[c] = buffer
        }
        for (c, latency) in playbackLatencies.enumerated() where c < channels { state.pointee.latencies[c] = latency }
        if !playbackLatencies.isEmpty {
            jack_set_latency_callback(client, { mode, arg in
                guard mode == JackPlaybackLatency else { return }
                let s = arg!.assumingMemoryBound(to: State.self)
                for c in 0..<s.pointee.channels {
                    var range = jack_latency_range_t(min: UInt32(s.pointee.latencies[c]), max: UInt32(s.pointee.latencies[c]))
                    jack_port_set_latency_range(s.pointee.ports[c], JackPlaybackLatency, &range)
                }
            }, UnsafeMutableRawPointer(state))
        }
        state.pointee.client = client
        jack_set_process_callback(client, { nframes, arg in
            let s = arg!.assumingMemoryBound(to: State.self)
            if let port = s.pointee.ports[0] {
                let input = jack_port_get_buffer(port, nframes)!.assumingMemoryBound(to: Float.self)
                var peak: Float = 0
                for i in 0..<Int(nframes) { peak = max(peak, abs(input[i])) }
                s.pointee.level.store(peak.bitPattern, ordering: .relaxed)
            }
            guard s.pointee.recording.load(ordering: .acquiring) else { return 0 }
            s.pointee.cycles += 1
            if s.pointee.lateEvery > 0 && s.pointee.cycles % s.pointee.lateEvery == 0 { JackRecorder.scan(s, frames: nframes) }
            let done = s.pointee.frames.load(ordering: .relaxed)
            let n = min(Int(nframes), s.pointee.capacity - done)
            guard n > 0 else { return 0 }
            s.pointee.log.note(s.pointee.client, frames: nframes, position: done, transport: true)
            for c in 0..<s.pointee.channels {
                let input = jack_port_get_buffer(s.pointee.ports[c], nframes)!.assumingMemoryBound(to: Float.self)
                (s.pointee.buffers[c]! + done).update(from: input, count: n)
            }
            s.pointee.frames.store(done + n, ordering: .releasing)
            return 0
        }, UnsafeMutableRawPointer(state))
        jack_activate(client)
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        for c in 0..<state.pointee.channels { state.pointee.buffers[c]?.deallocate() }
        state.deinitialize(count: 1).deallocate()
    }

    public var sampleRate: Double { Double(jack_get_sample_rate(client)) }

    /// Read every input buffer again and again for `lateMicroseconds`, keeping the peak.
    static func scan(_ s: UnsafeMutablePointer<State>, frames: jack_nframes_t) {
        var start = timespec(), now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var peak: Float = Float(bitPattern: s.pointee.scannedPeak.load(ordering: .relaxed))
        repeat {
            for c in 0..<s.pointee.channels {
                let input = jack_port_get_buffer(s.pointee.ports[c], frames)!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { peak = max(peak, abs(input[i])) }
            }
            clock_gettime(CLOCK_MONOTONIC, &now)
        } while (now.tv_sec - start.tv_sec) * 1_000_000 + (now.tv_nsec - start.tv_nsec) / 1000 < Int(s.pointee.lateMicroseconds)
        s.pointee.scannedPeak.store(peak.bitPattern, ordering: .relaxed)
    }

    /// The largest |sample| a late cycle's repeated reads saw.
    public var scannedPeak: Float { Float(bitPattern: state.pointee.scannedPeak.load(ordering: .relaxed)) }

    /// Xruns the server reported to this client so far.
    public var xruns: Int { state.pointee.xruns.load(ordering: .relaxed) }

    /// JACK's frame at each xrun reported so far (the first 256), read when the report came:
    /// at or after the cycle the xrun spoiled. Compare with `timeline`'s frames.
    public var xrunJackFrames: [Int] {
        let n = min(256, state.pointee.xruns.load(ordering: .acquiring))
        return (0..<n).map { Int(state.pointee.xrunFrames[$0]) }
    }

    /// The stretches of the last take that no xrun touched, as positions in it: between the xruns
    /// reported while it was recorded and the cycles it lost. A report follows the cycle it
    /// spoiled (a client under test that missed a cycle leaves stale or no samples there, which
    /// the take's own cycle log cannot show): each stretch ends two periods before a report and
    /// starts a period after it.
    public var untouchedStretches: [Range<Int>] {
        let timeline = self.timeline
        guard let first = timeline.cycles.first else { return [] }
        let period = first.length, count = framesRecorded
        let marks = (xrunJackFrames.filter { $0 >= first.frame }.compactMap { timeline.position(atJackFrame: $0) }
            + timeline.losses.map(\.position)).sorted()
        return zip([0] + marks.map { $0 + period }, marks.map { $0 - 2 * period } + [count])
            .filter { $0.0 < $0.1 }.map { $0.0..<$0.1 }
    }

    /// Where the last take (`take`, every channel) stops being equal to `render` over `count` frames
    /// from `start`, compared in its `untouchedStretches` (each found again within four periods of
    /// where the last left off); nil when equal throughout. See `Measure.firstDifference`.
    public func firstDifference(_ take: [[Float]], from start: Int, count: Int, render: [[Float]]) -> String? {
        Measure.firstDifference(live: take, stretches: untouchedStretches, from: start, count: count, render: render,
                                slack: 4 * (timeline.cycles.first?.length ?? 1024))
    }

    /// Wait until a port exists (e.g. "entrain:entrainment_L").
    public func waitForPort(_ fullName: String, timeout: TimeInterval = 10) throws {
        try waitFor("port \(fullName)", timeout: timeout, interval: 0.01) { jack_port_by_name(client, fullName) != nil }
    }

    /// Connect `sources` to our inputs in order. A client's ports exist before it is activated,
    /// and JACK refuses connections until then, so retry until JACK accepts.
    public func connect(_ sources: [String], timeout: TimeInterval = 10) throws {
        for (c, source) in sources.enumerated() {
            try JackTestClients.connect(client, source, "\(name):in_\(c + 1)", timeout: timeout)
        }
    }

    /// The peak of the first input in the latest cycle, recording or not.
    public var level: Float { Float(bitPattern: state.pointee.level.load(ordering: .relaxed)) }

    /// Wait until the first input carries sound (a connection reaches the graph a cycle or two
    /// after JACK accepts it, and a client fades in).
    public func waitForSound(above threshold: Float = 0.01, timeout: TimeInterval = 10) throws {
        try waitFor("sound on \(name):in_1", timeout: timeout, interval: 0.005) { level > threshold }
    }

    /// Whether a take is under way, and how many frames it has so far.
    public var isRecording: Bool { state.pointee.recording.load(ordering: .acquiring) }
    public var framesRecorded: Int { state.pointee.frames.load(ordering: .acquiring) }

    /// Wait until the take under way holds `frames` frames.
    public func waitForFrames(_ frames: Int, timeout: TimeInterval = 30) throws {
        try waitFor("\(frames) frames recorded", timeout: timeout, interval: 0.005) { framesRecorded >= frames }
    }

    /// The last take's cycles on JACK's time line: sample i of the take is at JACK frame
    /// `timeline.jackFrame(of: i)`, and `timeline.losses` says where an xrun cost the take frames.
    public var timeline: CycleTimeline { state.pointee.log.cycles }

    /// Record until the buffers are full (or `timeout` passes); returns one array per channel.
    public func record(timeout: TimeInterval = 30) throws -> [[Float]] {
        state.pointee.log.clear()
        state.pointee.frames.store(0, ordering: .relaxed)
        state.pointee.recording.store(true, ordering: .releasing)
        try waitFor("recording", timeout: timeout, interval: 0.005) {
            state.pointee.frames.load(ordering: .acquiring) >= state.pointee.capacity
        }
        state.pointee.recording.store(false, ordering: .releasing)
        return (0..<state.pointee.channels).map { c in
            Array(UnsafeBufferPointer(start: state.pointee.buffers[c]!, count: state.pointee.capacity))
        }
    }

    /// `record()`, with what could have spoiled the take: the xruns the server reported while it
    /// recorded (a cycle the client under test alone missed shows there, not in the take) and the
    /// cycles the take itself lost. What a take judged through xruns weighs its miss against.
    public func recordCountingXruns(timeout: TimeInterval = 30) throws -> (take: [[Float]], xruns: Int) {
        let before = xruns
        let take = try record(timeout: timeout)
        return (take, xruns - before + timeline.losses.count)
    }

    /// Ask the server to freewheel (run the graph as fast as it can, as for an export) or stop.
    public func freewheel(_ on: Bool) -> Bool { jack_set_freewheel(client, on ? 1 : 0) == 0 }

    /// Names of the ports a port is connected to.
    public func connections(of fullName: String) -> [String] {
        guard let port = jack_port_by_name(client, fullName),
              let list = jack_port_get_all_connections(client, port) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var i = 0
        while let entry = list[i] { names.append(String(cString: entry)); i += 1 }
        return names
    }

    /// A JACK metadata property of a port, if set.
    public func property(_ key: UnsafePointer<CChar>, ofPort fullName: String) -> String? {
        guard let port = jack_port_by_name(client, fullName) else { return nil }
        var value: UnsafeMutablePointer<CChar>?
        var type: UnsafeMutablePointer<CChar>?
        guard jack_get_property(jack_port_uuid(port), key, &value, &type) == 0, let value else { return nil }
        defer { jack_free(value); if let type { jack_free(type) } }
        return String(cString: value)
    }

    /// How many connections a client's ports have, as the server sees them now.
    public func connectionCount(ofClient clientName: String) -> Int {
        ports(ofClient: clientName).reduce(0) { count, port in
            guard let handle = jack_port_by_name(client, "\(clientName):\(port.name)"),
                  let list = jack_port_get_all_connections(client, handle) else { return count }
            defer { jack_free(list) }
            var n = 0
            while list[n] != nil { n += 1 }
            return count + n
        }
    }

    /// All ports of a client: (short name, flags, type).
    public func ports(ofClient clientName: String) -> [(name: String, flags: Int32, type: String)] {
        guard let list = jack_get_ports(client, "^\(clientName):", nil, 0) else { return [] }
        defer { jack_free(list) }
        var result: [(String, Int32, String)] = []
        var i = 0
        while let entry = list[i] {
            let full = String(cString: entry)
            if let port = jack_port_by_name(client, full) {
                result.append((String(full.dropFirst(clientName.count + 1)), jack_port_flags(port),
                               String(cString: jack_port_type(port))))
            }
            i += 1
        }
        return result
    }
}
