import CJack
import Foundation
import Synchronization

/// A JACK client that notes when beats arrive on its ports, on JACK's clock (CLOCK_MONOTONIC
/// µs): note-ons on its MIDI input, and rising edges through 0.5 on its audio input (an LED
/// port's flashes). Each time is its cycle's start (jack_get_cycle_times) plus the event's place
/// in the cycle, the same mapping entrain makes, so a Link peer's beat grid read on the
/// monotonic clock can be laid over them. Its process callback only writes preallocated memory.
public final class JackBeatProbe {
    struct State: ~Copyable {
        var midi: OpaquePointer?
        var audio: OpaquePointer?
        var client: OpaquePointer?
        let noteTimes: UnsafeMutablePointer<Double>
        let edgeTimes: UnsafeMutablePointer<Double>
        let capacity: Int
        let notes = Atomic<Int>(0)
        let edges = Atomic<Int>(0)
        let xruns = Atomic<Int>(0)
        var last: Float = 0

        init(capacity: Int) {
            self.capacity = capacity
            noteTimes = .allocate(capacity: capacity)
            edgeTimes = .allocate(capacity: capacity)
        }

        func free() {
            noteTimes.deallocate()
            edgeTimes.deallocate()
        }
    }

    public let client: OpaquePointer
    public let name: String
    private let state: UnsafeMutablePointer<State>

    public init(server: String, name: String = "beatprobe", capacity: Int = 4096) throws {
        (client, self.name) = try JackTestClients.open(name, server: server)
        state = .allocate(capacity: 1)
        state.initialize(to: State(capacity: capacity))
        state.pointee.client = client
        state.pointee.midi = jack_port_register(client, "midi_in", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0)
        state.pointee.audio = jack_port_register(client, "light_in", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)
        jack_set_process_callback(client, { frames, arg in
            arg!.assumingMemoryBound(to: State.self).pointee.process(frames)
            return 0
        }, UnsafeMutableRawPointer(state))
        jack_set_xrun_callback(client, { arg in
            arg!.assumingMemoryBound(to: State.self).pointee.xruns.add(1, ordering: .relaxed)
            return 0
        }, UnsafeMutableRawPointer(state))
        try JackTestClients.activate(client)
    }

    deinit {
        JackTestClients.close(client)
        state.pointee.free()
        state.deinitialize(count: 1).deallocate()
    }

    public func connectMIDI(from source: String, timeout: TimeInterval = 10) throws {
        try JackTestClients.connect(client, source, "\(name):midi_in", timeout: timeout)
    }

    public func connectLight(from source: String, timeout: TimeInterval = 10) throws {
        try JackTestClients.connect(client, source, "\(name):light_in", timeout: timeout)
    }

    /// Monotonic µs of every note-on so far, and of every rising edge of the light.
    public var noteTimes: [Double] { Array(UnsafeBufferPointer(start: state.pointee.noteTimes, count: state.pointee.notes.load(ordering: .acquiring))) }
    public var edgeTimes: [Double] { Array(UnsafeBufferPointer(start: state.pointee.edgeTimes, count: state.pointee.edges.load(ordering: .acquiring))) }
    public var xruns: Int { state.pointee.xruns.load(ordering: .relaxed) }
}

extension JackBeatProbe.State {
    mutating func process(_ frames: jack_nframes_t) {
        guard let client else { return }
        var first: jack_nframes_t = 0, current: jack_time_t = 0, next: jack_time_t = 0
        var period: Float = 0
        guard jack_get_cycle_times(client, &first, &current, &next, &period) == 0 else { return }
        let perFrame = Double(period) / Double(frames)
        if let midi, let buffer = jack_port_get_buffer(midi, frames) {
            var n = notes.load(ordering: .relaxed)
            for i in 0..<jack_midi_get_event_count(buffer) where n < capacity {
                var event = jack_midi_event_t()
                guard jack_midi_event_get(&event, buffer, i) == 0, event.size >= 3 else { continue }
                guard event.buffer[0] & 0xF0 == 0x90, event.buffer[2] > 0 else { continue }
                noteTimes[n] = Double(current) + Double(event.time) * perFrame
                n += 1
            }
            notes.store(n, ordering: .releasing)
        }
        if let audio, let samples = jack_port_get_buffer(audio, frames)?.assumingMemoryBound(to: Float.self) {
            var n = edges.load(ordering: .relaxed)
            for i in 0..<Int(frames) where n < capacity {
                if last < 0.5 && samples[i] >= 0.5 {
                    edgeTimes[n] = Double(current) + Double(i) * perFrame
                    n += 1
                }
                last = samples[i]
            }
            edges.store(n, ordering: .releasing)
        }
    }
}

extension JackBeatProbe {
    /// Whether this JACK library's clock is CLOCK_MONOTONIC_RAW (jackd2) rather than
    /// CLOCK_MONOTONIC (PipeWire): the one nearer jack_get_time read between them.
    public var clockIsRaw: Bool {
        var mono = timespec(), raw = timespec()
        clock_gettime(CLOCK_MONOTONIC, &mono)
        let jack = Double(jack_get_time())
        clock_gettime(CLOCK_MONOTONIC_RAW, &raw)
        func micros(_ t: timespec) -> Double { Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3 }
        return abs(jack - micros(raw)) < abs(jack - micros(mono))
    }
}
