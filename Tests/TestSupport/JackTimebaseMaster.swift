import CJack
import Foundation

/// A JACK client that runs the transport as timebase master at a fixed tempo in 4/4 (bars,
/// beats and ticks from the transport frame), the way a DAW would; tests keep time with it.
public final class JackTimebaseMaster {
    public let client: OpaquePointer
    private let bpm: UnsafeMutablePointer<Double>

    public init(server: String, bpm tempo: Double, name: String = "timebase") throws {
        var status = jack_status_t(rawValue: 0)
        guard let client = entrain_jack_client_open(name, JackNoStartServer, &status, server) else {
            throw TestSupportError.cannotOpenClient
        }
        self.client = client
        bpm = .allocate(capacity: 1)
        bpm.initialize(to: tempo)
        jack_set_timebase_callback(client, 0, { _, _, position, _, arg in
            guard let position, let arg else { return }
            let bpm = arg.assumingMemoryBound(to: Double.self).pointee
            let rate = position.pointee.frame_rate > 0 ? Double(position.pointee.frame_rate) : 48_000
            let beats = Double(position.pointee.frame) / (rate * 60 / bpm)
            let whole = Int(beats)
            position.pointee.bar = Int32(whole / 4 + 1)
            position.pointee.beat = Int32(whole % 4 + 1)
            position.pointee.ticks_per_beat = 1920
            position.pointee.tick = Int32((beats - Double(whole)) * 1920)
            position.pointee.bar_start_tick = Double(whole / 4) * 4 * 1920
            position.pointee.beats_per_bar = 4
            position.pointee.beat_type = 4
            position.pointee.beats_per_minute = bpm
            position.pointee.valid = jack_position_bits_t(rawValue: position.pointee.valid.rawValue | JackPositionBBT.rawValue)
        }, UnsafeMutableRawPointer(bpm))
        guard jack_activate(client) == 0 else { throw TestSupportError.cannotOpenClient }
        jack_transport_locate(client, 0)
        jack_transport_start(client)
    }

    public func stop() {
        jack_transport_stop(client)
        jack_release_timebase(client)
        jack_client_close(client)
        bpm.deallocate()
    }
}
