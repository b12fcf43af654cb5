import CJack
import Foundation
import Synchronization

/// A JACK client that plays a buffer from memory through one output port: how tests feed
/// entrain's beat_in. It notes the JACK frame of every cycle it played, so what the client under
/// test reports can be compared with the exact time each sample went out, also when an xrun
/// cost the player a cycle (its later samples then went out that much later).
public final class JackPlayer {
    struct State: ~Copyable {
        var port: OpaquePointer?
        var clientPointer: OpaquePointer?
        var samples: UnsafeMutablePointer<Float>?
        var count = 0
        let playing = Atomic<Bool>(false)
        let position = Atomic<Int>(0)
        let log = CycleLog(capacity: 1 << 16)
        init() {}
    }

    public let client: OpaquePointer
    public let name: String
    private let state: UnsafeMutablePointer<State>

    public init(server: String, samples: [Float], name: String = "player") throws {
        (client, self.name) = try JackTestClients.open(name, server: server)
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(1, samples.count))
        buffer.initialize(from: samples, count: samples.count)
        state.pointee.samples = buffer
        state.pointee.count = samples.count
        state.pointee.port = jack_port_register(client, "out", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)
        jack_set_process_callback(client, { nframes, arg in
            let s = arg!.assumingMemoryBound(to: State.self)
            let out = jack_port_get_buffer(s.pointee.port, nframes)!.assumingMemoryBound(to: Float.self)
            out.update(repeating: 0, count: Int(nframes))
            guard s.pointee.playing.load(ordering: .acquiring) else { return 0 }
            let done = s.pointee.position.load(ordering: .relaxed)
            let n = min(Int(nframes), s.pointee.count - done)
            if n > 0 {
                s.pointee.log.note(s.pointee.clientPointer, frames: nframes, position: done)
                out.update(from: s.pointee.samples! + done, count: n)
            }
            s.pointee.position.store(done + max(0, n), ordering: .releasing)
            return 0
        }, UnsafeMutableRawPointer(state))
        state.pointee.clientPointer = client
        jack_activate(client)
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        state.pointee.samples?.deallocate()
        state.deinitialize(count: 1).deallocate()
    }

    public var sampleRate: Double { Double(jack_get_sample_rate(client)) }

    /// Connect our output to `destination` (retrying until JACK accepts, as for the recorder).
    public func connect(to destination: String, timeout: TimeInterval = 10) throws {
        try JackTestClients.connect(client, "\(name):out", destination, timeout: timeout)
    }

    /// Start playing from the first sample.
    public func play() {
        state.pointee.position.store(0, ordering: .relaxed)
        state.pointee.log.clear()
        state.pointee.playing.store(true, ordering: .releasing)
    }

    /// The cycles played so far on JACK's time line (sample i went out at `jackFrame(ofSample: i)`).
    public var timeline: CycleTimeline { state.pointee.log.cycles }

    /// The JACK frame time at which the first sample played, nil before.
    public var startFrame: Int? { jackFrame(ofSample: 0) }

    /// The JACK frame time at which sample `i` played, nil if it has not (yet).
    public func jackFrame(ofSample i: Int) -> Int? { timeline.jackFrame(of: i) }

    public var isFinished: Bool { state.pointee.position.load(ordering: .acquiring) >= state.pointee.count }

    /// Wait until the player has played `sample` samples (the audio's own time, whatever the load).
    public func waitForSample(_ sample: Int, timeout: TimeInterval = 120) throws {
        try waitFor("the player to reach sample \(sample)", timeout: timeout, interval: 0.01) {
            state.pointee.position.load(ordering: .acquiring) >= min(sample, state.pointee.count)
        }
    }

    /// Wait until every sample has played.
    public func waitUntilFinished(timeout: TimeInterval = 120) throws {
        try waitFor("the player to finish", timeout: timeout, interval: 0.02) { isFinished }
    }

    /// Unix time at which the first sample was played (nil before it was).
    public var startUnixTime: Double? { startFrame.map(unixTime(ofJackFrame:)) }

    /// Unix time of a JACK frame: JACK's clock as read in the played cycle nearest it (see
    /// `CycleTimeline.jackMicros`), else as JACK maps it now; mapped onto the wall clock now.
    public func unixTime(ofJackFrame frame: Int) -> Double {
        let micros = timeline.jackMicros(ofFrame: frame, sampleRate: sampleRate)
            ?? Double(jack_frames_to_time(client, jack_nframes_t(truncatingIfNeeded: frame)))
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let wallNow = Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
        return (micros + wallNow - Double(jack_get_time())) / 1e6
    }
}
