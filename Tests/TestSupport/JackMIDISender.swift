import CJack
import Foundation
import Synchronization

/// A JACK client with one MIDI output that sends what a test queues at the start of its next
/// cycle: how tests play a keyboard or a fader box into entrain.
public final class JackMIDISender {
    struct State: ~Copyable {
        var port: OpaquePointer?
        let data: UnsafeMutablePointer<UInt8>
        /// Each message's length (a program change has two bytes).
        let sizes: UnsafeMutablePointer<Int>
        let capacity = 4096
        let queued = Atomic<Int>(0)
        var sent = 0
        init() {
            data = .allocate(capacity: 4096 * 3)
            data.initialize(repeating: 0, count: 4096 * 3)
            sizes = .allocate(capacity: 4096)
            sizes.initialize(repeating: 3, count: 4096)
        }
        deinit {
            data.deallocate()
            sizes.deallocate()
        }
    }

    public let client: OpaquePointer
    public let name: String
    private let state: UnsafeMutablePointer<State>

    public init(server: String, name: String = "midisend") throws {
        (client, self.name) = try JackTestClients.open(name, server: server)
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.port = jack_port_register(client, "out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0)
        jack_set_process_callback(client, { nframes, arg in
            let s = arg!.assumingMemoryBound(to: State.self)
            guard let buffer = jack_port_get_buffer(s.pointee.port, nframes) else { return 0 }
            jack_midi_clear_buffer(buffer)
            let queued = s.pointee.queued.load(ordering: .acquiring)
            while s.pointee.sent < queued {
                let slot = s.pointee.sent % s.pointee.capacity
                jack_midi_event_write(buffer, 0, s.pointee.data + slot * 3, s.pointee.sizes[slot])
                s.pointee.sent += 1
            }
            return 0
        }, UnsafeMutableRawPointer(state))
        try JackTestClients.activate(client)
    }

    deinit {
        JackTestClients.close(client)
        state.deinitialize(count: 1).deallocate()
    }

    /// Connect our output to `destination` (e.g. "entrain:midi_in"), retrying until JACK accepts.
    public func connect(to destination: String, timeout: TimeInterval = 10) throws {
        try JackTestClients.connect(client, "\(name):out", destination, timeout: timeout)
    }

    /// A three-byte message (note, controller), sent in the next cycle.
    public func send(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) { send([b0, b1, b2]) }

    /// A message of one to three bytes (a program change: two), sent in the next cycle.
    public func send(_ bytes: [UInt8]) {
        precondition((1...3).contains(bytes.count))
        let n = state.pointee.queued.load(ordering: .relaxed)
        let index = n % state.pointee.capacity
        for (i, byte) in bytes.enumerated() { state.pointee.data[index * 3 + i] = byte }
        state.pointee.sizes[index] = bytes.count
        state.pointee.queued.store(n + 1, ordering: .releasing)
    }
}
