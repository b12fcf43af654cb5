import CJack
import Foundation
import Synchronization

/// A JACK client that plays a buffer from memory through one output port: how tests feed
/// entrain's beat_in. It notes the JACK frame of the first sample it played, so what the
/// client under test reports can be compared with the exact time each sample went out.
public final class JackPlayer {
    struct State: ~Copyable {
        var port: OpaquePointer?
        var clientPointer: OpaquePointer?
        var samples: UnsafeMutablePointer<Float>?
        var count = 0
        let playing = Atomic<Bool>(false)
        let position = Atomic<Int>(0)
        let startFrame = Atomic<Int>(-1)
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
            if done == 0 {
                // The frame at which this cycle's buffer starts: the first sample's time.
                s.pointee.startFrame.store(Int(jack_last_frame_time(s.pointee.clientPointer)), ordering: .releasing)
            }
            let n = min(Int(nframes), s.pointee.count - done)
            if n > 0 { out.update(from: s.pointee.samples! + done, count: n) }
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
        state.pointee.startFrame.store(-1, ordering: .relaxed)
        state.pointee.playing.store(true, ordering: .releasing)
    }

    /// The JACK frame time at which the first sample played, nil before.
    public var startFrame: Int? {
        let frame = state.pointee.startFrame.load(ordering: .acquiring)
        return frame < 0 ? nil : frame
    }

    public var isFinished: Bool { state.pointee.position.load(ordering: .acquiring) >= state.pointee.count }

    /// Unix time at which the first sample was played (nil before it was).
    public var startUnixTime: Double? {
        let frame = state.pointee.startFrame.load(ordering: .acquiring)
        guard frame >= 0 else { return nil }
        let micros = Double(jack_frames_to_time(client, jack_nframes_t(frame)))
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let wallNow = Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
        return (micros + wallNow - Double(jack_get_time())) / 1e6
    }
}
