import CJack
import Foundation
import Synchronization

/// A JACK client with one MIDI input that keeps every event with its absolute frame (the cycle's
/// first frame plus the event's offset), into preallocated memory from its process callback.
/// Its cycle log corrects a cycle whose frame it read late, and says where an xrun cost it a
/// cycle (whose events it then lacks).
public final class JackMIDIRecorder {
    public struct Event: Sendable, Equatable {
        public var frame: UInt32
        public var bytes: [UInt8]
    }

    struct State: ~Copyable {
        var port: OpaquePointer?
        var clientHandle: OpaquePointer?
        let frames: UnsafeMutablePointer<UInt32>
        /// The cycle each event came in (an index into `log`).
        let cycleIndices: UnsafeMutablePointer<Int>
        let offsets: UnsafeMutablePointer<UInt32>
        let log = CycleLog(capacity: 1 << 18)
        var cycleCount = 0
        var processed = 0
        let data: UnsafeMutablePointer<UInt8>  // three bytes per event
        let sizes: UnsafeMutablePointer<UInt8>
        let capacity: Int
        let count = Atomic<Int>(0)
        let xruns = Atomic<Int>(0)
        init(capacity: Int) {
            self.capacity = capacity
            frames = .allocate(capacity: capacity)
            cycleIndices = .allocate(capacity: capacity)
            offsets = .allocate(capacity: capacity)
            data = .allocate(capacity: capacity * 3)
            data.initialize(repeating: 0, count: capacity * 3)
            sizes = .allocate(capacity: capacity)
        }
        deinit {
            frames.deallocate()
            cycleIndices.deallocate()
            offsets.deallocate()
            data.deallocate()
            sizes.deallocate()
        }
    }

    public let client: OpaquePointer
    public let name: String
    private let state: UnsafeMutablePointer<State>

    public init(server: String, name: String = "midirec", capacity: Int = 100_000) throws {
        (client, self.name) = try JackTestClients.open(name, server: server)
        state = .allocate(capacity: 1)
        state.initialize(to: State(capacity: capacity))
        state.pointee.port = jack_port_register(client, "in", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0)
        jack_set_process_callback(client, { nframes, arg in
            let s = arg!.assumingMemoryBound(to: State.self)
            guard let buffer = jack_port_get_buffer(s.pointee.port, nframes) else { return 0 }
            let start = jack_last_frame_time(s.pointee.clientHandle)
            let cycle = s.pointee.cycleCount
            s.pointee.log.note(s.pointee.clientHandle, frames: nframes, position: s.pointee.processed)
            s.pointee.cycleCount += 1
            s.pointee.processed += Int(nframes)
            var n = s.pointee.count.load(ordering: .relaxed)
            for i in 0..<jack_midi_get_event_count(buffer) where n < s.pointee.capacity {
                var event = jack_midi_event_t()
                guard jack_midi_event_get(&event, buffer, i) == 0 else { continue }
                s.pointee.frames[n] = start &+ event.time
                s.pointee.cycleIndices[n] = cycle
                s.pointee.offsets[n] = event.time
                let size = min(3, event.size)
                s.pointee.sizes[n] = UInt8(size)
                for b in 0..<size { s.pointee.data[n * 3 + b] = event.buffer[b] }
                n += 1
            }
            s.pointee.count.store(n, ordering: .releasing)
            return 0
        }, UnsafeMutableRawPointer(state))
        jack_set_xrun_callback(client, { arg in
            arg!.assumingMemoryBound(to: State.self).pointee.xruns.add(1, ordering: .relaxed)
            return 0
        }, UnsafeMutableRawPointer(state))
        state.pointee.clientHandle = client
        try JackTestClients.activate(client)
    }

    deinit {
        JackTestClients.close(client)
        state.deinitialize(count: 1).deallocate()
    }

    /// Connect `source` (e.g. "entrain:midi_out") to our input, retrying until JACK accepts.
    public func connect(from source: String, timeout: TimeInterval = 10) throws {
        try JackTestClients.connect(client, source, "\(name):in", timeout: timeout)
    }

    /// Every event so far, in order, on its cycle's corrected frame.
    public var events: [Event] {
        let n = state.pointee.count.load(ordering: .acquiring)
        let timeline = self.timeline
        return (0..<n).map { i in
            var frame = state.pointee.frames[i]
            if let cycle = timeline.cycles[safe: state.pointee.cycleIndices[i]] {
                frame = jack_nframes_t(truncatingIfNeeded: cycle.frame) &+ state.pointee.offsets[i]
            }
            return Event(frame: frame, bytes: Array(UnsafeBufferPointer(start: state.pointee.data + i * 3, count: Int(state.pointee.sizes[i]))))
        }
    }

    /// Every cycle the recorder ran, on JACK's time line (its `losses`: cycles an xrun cost it).
    public var timeline: CycleTimeline { state.pointee.log.cycles }

    public var sampleRate: Double { Double(jack_get_sample_rate(client)) }
    /// Xruns JACK reported while recording: each may have cost a cycle's events.
    public var xruns: Int { state.pointee.xruns.load(ordering: .relaxed) }
}
