import CJack
import Synchronization

/// The cycles a test client's process callback ran, each with the JACK frame JACK gave it, its
/// length and where the client's own count stood (a take's offset, a player's sample), kept in
/// preallocated memory: the callback only stores.
///
/// Why tests need it: on this kind of machine the dummy jackd has xruns, and an xrun can cost a
/// client a cycle (JACK's frame counter runs on, the client's data lacks those frames), and a
/// client that runs late in its cycle reads the next cycle's frame from `jack_last_frame_time`,
/// one period too far. `cycles` corrects the late reads and keeps the real losses, so a test can
/// place each sample on JACK's time line and judge around the frames it lacks.
public struct CycleLog: ~Copyable {
    private let frames: UnsafeMutablePointer<UInt32>
    private let lengths: UnsafeMutablePointer<UInt32>
    private let positions: UnsafeMutablePointer<Int>
    private let transportFrames: UnsafeMutablePointer<Int>
    private let clockFrames: UnsafeMutablePointer<UInt32>
    private let clockMicros: UnsafeMutablePointer<UInt64>
    private let capacity: Int
    private let count = Atomic<Int>(0)

    public init(capacity: Int) {
        self.capacity = capacity
        frames = .allocate(capacity: capacity)
        lengths = .allocate(capacity: capacity)
        positions = .allocate(capacity: capacity)
        transportFrames = .allocate(capacity: capacity)
        clockFrames = .allocate(capacity: capacity)
        clockMicros = .allocate(capacity: capacity)
    }

    deinit {
        frames.deallocate()
        lengths.deallocate()
        positions.deallocate()
        transportFrames.deallocate()
        clockFrames.deallocate()
        clockMicros.deallocate()
    }

    /// From the process callback: this cycle's frame and length, and the client's count at its
    /// start. `transport` also keeps the transport's frame (-1 when it is not rolling).
    public func note(_ client: OpaquePointer?, frames length: jack_nframes_t, position: Int, transport: Bool = false) {
        let n = count.load(ordering: .relaxed)
        guard n < capacity, let client else { return }
        frames[n] = jack_last_frame_time(client)
        lengths[n] = length
        positions[n] = position
        // JACK's clock at this cycle (the filtered start time of the frame it names), as the
        // client under test reads it for its own time tags.
        var cycleFrame: jack_nframes_t = 0, current: jack_time_t = 0, next: jack_time_t = 0
        var period: Float = 0
        if jack_get_cycle_times(client, &cycleFrame, &current, &next, &period) != 0 { current = 0 }
        clockFrames[n] = cycleFrame
        clockMicros[n] = current
        if transport {
            var state = jack_position_t()
            transportFrames[n] = jack_transport_query(client, &state) == JackTransportRolling ? Int(state.frame) : -1
        } else {
            transportFrames[n] = -1
        }
        count.store(n + 1, ordering: .releasing)
    }

    /// Forget every cycle (a new take starts).
    public func clear() { count.store(0, ordering: .releasing) }

    /// The cycles so far, late reads corrected.
    public var cycles: CycleTimeline {
        let n = count.load(ordering: .acquiring)
        var list = (0..<n).map { k in
            CycleTimeline.Cycle(frame: Int(frames[k]), length: Int(lengths[k]), position: positions[k], transportFrame: transportFrames[k],
                                clockFrame: Int(clockFrames[k]), clockMicros: clockMicros[k])
        }
        // jackd2 adds a cycle's length to its frame counter as the cycle begins, so the frames of
        // two cycles in a row differ by the second one's length. Less than that means the first
        // was read late, in the next cycle (a client never runs a cycle twice): take it from its
        // successor. More is a real loss and stays. The 32-bit counter wraps after 24 h at 48 kHz.
        for k in 1..<max(1, list.count) where list[k].frame < list[k - 1].frame - (1 << 31) {
            list[k].frame += 1 << 32
        }
        for k in stride(from: list.count - 1, to: 0, by: -1) where list[k].frame - list[k - 1].frame < list[k].length {
            list[k - 1].frame = list[k].frame - list[k].length
            if list[k - 1].transportFrame >= 0, list[k].transportFrame >= 0 {
                list[k - 1].transportFrame = list[k].transportFrame - list[k - 1].length
            }
        }
        // The clock's frame is the cycle's own or, read late, the next one's: near `frame` either way.
        for k in list.indices {
            let delta = Int32(bitPattern: UInt32(truncatingIfNeeded: list[k].clockFrame) &- UInt32(truncatingIfNeeded: list[k].frame))
            list[k].clockFrame = list[k].frame + Int(delta)
        }
        return CycleTimeline(cycles: list)
    }
}

/// A client's cycles on JACK's time line, late reads corrected (see `CycleLog`).
public struct CycleTimeline: Sendable {
    public struct Cycle: Sendable, Equatable {
        /// JACK's frame for the cycle (`jack_last_frame_time`), its length, the client's count at
        /// its start, and the transport's frame (-1 when not rolling or not asked).
        public var frame: Int
        public var length: Int
        public var position: Int
        public var transportFrame: Int
        /// JACK's clock in this cycle: a frame and its filtered time (µs, 0 when unread).
        public var clockFrame = 0
        public var clockMicros: UInt64 = 0
    }

    public let cycles: [Cycle]

    /// Where this client's data lacks frames JACK counted: at the client's count `position`,
    /// `frames` frames of JACK's time went by without its callback.
    public var losses: [(position: Int, frames: Int)] {
        zip(cycles, cycles.dropFirst()).compactMap { a, b in
            let lost = b.frame - a.frame - b.length
            return lost > 0 ? (b.position, lost) : nil
        }
    }

    /// The same losses on JACK's time line: the frames that went by without the client's callback.
    public var lostJackFrames: [Range<Int>] {
        zip(cycles, cycles.dropFirst()).compactMap { a, b in
            b.frame - a.frame - b.length > 0 ? (a.frame + a.length)..<b.frame : nil
        }
    }

    /// Whether the client lost frames anywhere between JACK frames `from` and `to`.
    public func lostFrames(between from: Int, and to: Int) -> Int {
        lostJackFrames.reduce(0) { $0 + max(0, min($1.upperBound, to) - max($1.lowerBound, from)) }
    }

    /// The frames lost between the client's counts `from` and `to`.
    public func framesLost(from: Int, to: Int) -> Int {
        losses.filter { $0.position > from && $0.position <= to }.reduce(0) { $0 + $1.frames }
    }

    /// The cycle that holds the client's count `position`, if one does.
    public func cycle(holding position: Int) -> Cycle? {
        var low = 0, high = cycles.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let c = cycles[mid]
            if position < c.position { high = mid - 1 } else if position >= c.position + c.length { low = mid + 1 } else { return c }
        }
        return nil
    }

    /// JACK's frame of the client's count `position` (the cycle's frame plus the offset in it).
    public func jackFrame(of position: Int) -> Int? {
        cycle(holding: position).map { $0.frame + position - $0.position }
    }

    /// The client's count at JACK frame `frame`: where its data stood then (the end of the last
    /// cycle before it when the frame fell in a loss), nil before its first cycle.
    public func position(atJackFrame frame: Int) -> Int? {
        guard let c = cycles.last(where: { $0.frame <= frame }) else { return nil }
        return c.position + min(c.length, frame - c.frame)
    }

    /// JACK's time (µs) of JACK frame `frame` by the clock read in the cycle nearest it, at the
    /// nominal `sampleRate`, as the client under test stamps its events: the filtered clock of a
    /// cycle seconds away (`jack_frames_to_time` after the run) drifts from it by milliseconds
    /// over a song. Nil without a clock read.
    public func jackMicros(ofFrame frame: Int, sampleRate: Double) -> Double? {
        var low = 0, high = cycles.count - 1
        while low < high {  // the last cycle whose clock frame is at or before `frame`
            let mid = (low + high + 1) / 2
            if cycles[mid].clockFrame <= frame { low = mid } else { high = mid - 1 }
        }
        guard cycles.indices.contains(low), cycles[low].clockMicros > 0 else { return nil }
        return Double(cycles[low].clockMicros) + Double(frame - cycles[low].clockFrame) * 1e6 / sampleRate
    }

    /// The transport's frame at the client's count `position`, if it was rolling in that cycle.
    public func transportFrame(of position: Int) -> Int? {
        guard let c = cycle(holding: position), c.transportFrame >= 0 else { return nil }
        return c.transportFrame + position - c.position
    }
}
