import Foundation

/// A Standard MIDI File (format 0, one track) built in memory: tempo changes, program changes
/// and notes at tick positions. Enough for fluidsynth to play a song; nothing more.
struct MIDIFileWriter {
    enum Event {
        case tempo(microsecondsPerQuarter: Int)
        case program(channel: UInt8, program: UInt8)
        case noteOn(channel: UInt8, key: UInt8, velocity: UInt8)
        case noteOff(channel: UInt8, key: UInt8)
    }

    let ticksPerQuarter: Int
    private var events: [(tick: Int, order: Int, event: Event)] = []

    init(ticksPerQuarter: Int = 480) {
        self.ticksPerQuarter = ticksPerQuarter
    }

    mutating func add(_ event: Event, at tick: Int) {
        events.append((max(0, tick), events.count, event))
    }

    /// The file's bytes. Events at the same tick keep the order they were added in, except that
    /// note-offs go first (a note repeated on the same key must not be cut by its predecessor's end).
    func data(endTick: Int) -> Data {
        let sorted = events.sorted { a, b in
            if a.tick != b.tick { return a.tick < b.tick }
            let aOff = if case .noteOff = a.event { true } else { false }
            let bOff = if case .noteOff = b.event { true } else { false }
            return aOff != bOff ? aOff : a.order < b.order
        }
        var track: [UInt8] = []
        var tick = 0
        for item in sorted {
            track += Self.variableLength(item.tick - tick)
            tick = item.tick
            switch item.event {
            case .tempo(let us):
                track += [0xFF, 0x51, 0x03, UInt8((us >> 16) & 0xFF), UInt8((us >> 8) & 0xFF), UInt8(us & 0xFF)]
            case .program(let channel, let program): track += [0xC0 | channel, program & 0x7F]
            case .noteOn(let channel, let key, let velocity): track += [0x90 | channel, key & 0x7F, max(1, velocity & 0x7F)]
            case .noteOff(let channel, let key): track += [0x80 | channel, key & 0x7F, 0]
            }
        }
        // End of track at the song's end, so the player (and the rendering) lasts that long.
        track += Self.variableLength(max(0, endTick - tick)) + [0xFF, 0x2F, 0x00]
        var bytes: [UInt8] = Array("MThd".utf8) + Self.bigEndian(6, 4) + Self.bigEndian(0, 2) + Self.bigEndian(1, 2)
            + Self.bigEndian(ticksPerQuarter, 2)
        bytes += Array("MTrk".utf8) + Self.bigEndian(track.count, 4) + track
        return Data(bytes)
    }

    static func variableLength(_ value: Int) -> [UInt8] {
        var v = value, out = [UInt8(v & 0x7F)]
        v >>= 7
        while v > 0 {
            out.insert(UInt8(v & 0x7F) | 0x80, at: 0)
            v >>= 7
        }
        return out
    }

    static func bigEndian(_ value: Int, _ bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
