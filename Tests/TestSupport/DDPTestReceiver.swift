import Foundation

/// One displayed DDP frame: the pixel bytes a display holds when a packet with the push flag
/// arrives, and when that was.
public struct ReceivedDDP: Sendable {
    public var sequence: Int
    public var dataType: UInt8
    public var bytes: [UInt8]
    /// Monotonic seconds, and Unix time (to set against OSC time tags).
    public var arrival: Double
    public var unixArrival: Double
}

/// A DDP display on 127.0.0.1, written from the protocol's document (3waylabs' DDP): a 10-byte
/// header — flags (version in the top two bits must be 1; 0x01 push; timecode 0x10 adds 4 bytes),
/// sequence (low 4 bits), data type, destination id, a 32-bit big-endian byte offset, a 16-bit
/// big-endian length — then the data, written into the display's buffer at the offset; a push
/// shows the buffer. Queries, replies and other destinations than 1 (the display) count invalid.
public final class DDPTestReceiver: DatagramReceiver<ReceivedDDP>, @unchecked Sendable {
    public convenience init() throws {
        var display = DDPDisplay()
        try self.init { p, arrival, unix in
            guard let shown = display.take(p) else { return nil }
            return shown.map { [ReceivedDDP(sequence: Int(p[1] & 0x0F), dataType: p[2], bytes: $0, arrival: arrival, unixArrival: unix)] } ?? []
        }
    }
}

/// A DDP display's buffer (see DDPTestReceiver for the rules).
public struct DDPDisplay {
    private var buffer: [UInt8] = []
    public init() {}

    /// nil: not a valid data packet; .some(nil): taken, nothing shown; .some(bytes): pushed, the frame shown.
    public mutating func take(_ p: [UInt8]) -> [UInt8]?? {
        guard p.count >= 10, p[0] >> 6 == 1, p[0] & 0x0E == 0, p[3] == 1 else { return nil }
        let header = p[0] & 0x10 != 0 ? 14 : 10
        let offset = Int(p[4]) << 24 | Int(p[5]) << 16 | Int(p[6]) << 8 | Int(p[7])
        let length = Int(p[8]) << 8 | Int(p[9])
        guard p.count == header + length, length <= 1440 else { return nil }
        if buffer.count < offset + length { buffer += [UInt8](repeating: 0, count: offset + length - buffer.count) }
        buffer.replaceSubrange(offset..<(offset + length), with: p[header...])
        return .some(p[0] & 0x01 != 0 ? buffer : nil)
    }
}

extension [ReceivedDDP] {
    public var framesPerSecond: Double { TestSupport.framesPerSecond(arrivals: map(\.arrival)) }
}
