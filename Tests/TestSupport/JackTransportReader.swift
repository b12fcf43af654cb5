import CJack
import Foundation
import Synchronization

/// A JACK client that reads the transport's position with jack_transport_query in every cycle,
/// as a DAW following JACK transport does, and keeps the rolling ones with the cycle's first
/// frame (JACK frame time) in preallocated memory.
public final class JackTransportReader {
    public struct Position: Sendable, Equatable {
        /// JACK frame time of the cycle's start, and the transport's frame there.
        public var cycleFrame: UInt32
        public var transportFrame: UInt32
        public var bar: Int32, beat: Int32, tick: Int32
        public var ticksPerBeat: Double
        public var bpm: Double

        /// Beats since bar 1 beat 1 (4/4).
        public var beats: Double { Double(bar - 1) * 4 + Double(beat - 1) + Double(tick) / ticksPerBeat }
        /// JACK frame time of the beat's tick 0 before this cycle, at the position's tempo.
        public func beatStart(sampleRate: Double) -> Double {
            Double(cycleFrame) - Double(tick) / ticksPerBeat * sampleRate * 60 / bpm
        }
    }

    struct State: ~Copyable {
        var clientHandle: OpaquePointer?
        let positions: UnsafeMutablePointer<Position>
        let capacity: Int
        let count = Atomic<Int>(0)
        init(capacity: Int) {
            self.capacity = capacity
            positions = .allocate(capacity: capacity)
        }
        deinit { positions.deallocate() }
    }

    public let client: OpaquePointer
    private let state: UnsafeMutablePointer<State>

    public init(server: String, name: String = "transportreader", capacity: Int = 50_000) throws {
        (client, _) = try JackTestClients.open(name, server: server)
        state = .allocate(capacity: 1)
        state.initialize(to: State(capacity: capacity))
        state.pointee.clientHandle = client
        jack_set_process_callback(client, { _, arg in
            let s = arg!.assumingMemoryBound(to: State.self)
            var position = jack_position_t()
            let n = s.pointee.count.load(ordering: .relaxed)
            guard jack_transport_query(s.pointee.clientHandle, &position) == JackTransportRolling, n < s.pointee.capacity,
                  position.valid.rawValue & JackPositionBBT.rawValue != 0, position.ticks_per_beat > 0 else { return 0 }
            s.pointee.positions[n] = Position(cycleFrame: jack_last_frame_time(s.pointee.clientHandle), transportFrame: position.frame,
                                              bar: position.bar, beat: position.beat, tick: position.tick,
                                              ticksPerBeat: position.ticks_per_beat, bpm: position.beats_per_minute)
            s.pointee.count.store(n + 1, ordering: .releasing)
            return 0
        }, UnsafeMutableRawPointer(state))
        try JackTestClients.activate(client)
    }

    deinit {
        JackTestClients.close(client)
        state.deinitialize(count: 1).deallocate()
    }

    /// Every rolling position so far, in order.
    public var positions: [Position] {
        let n = state.pointee.count.load(ordering: .acquiring)
        return Array(UnsafeBufferPointer(start: state.pointee.positions, count: n))
    }
}
