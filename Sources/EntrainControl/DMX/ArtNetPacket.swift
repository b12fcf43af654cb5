/// ArtDmx, the Art-Net packet that carries one universe of DMX512 (Art-Net 4).
///
/// Layout: "Art-Net" and a zero byte; OpCode 0x5000 (little-endian); protocol version 14
/// (big-endian); a sequence number (1…255 wrapping, 0 would tell the node not to reorder);
/// the physical input (0); the 15-bit port address as SubUni (low byte: sub-net and universe)
/// then Net (high 7 bits); the data length (big-endian, even, 2…512); the channel values.
public enum ArtNetPacket {
    public static let port: UInt16 = 6454
    public static let header: [UInt8] = Array("Art-Net".utf8) + [0]
    public static let opDmx: UInt16 = 0x5000
    public static let protocolVersion: UInt16 = 14
    /// Port addresses run 0…32767 (Net 0–127, Sub-Net 0–15, Universe 0–15).
    public static let universes: ClosedRange<Int> = 0...32767

    /// One ArtDmx packet. `channels` is padded to an even length of at least 2.
    public static func dmx(sequence: UInt8, universe: Int, channels: [UInt8]) -> [UInt8] {
        var data = Array(channels.prefix(512))
        if data.count < 2 { data += [UInt8](repeating: 0, count: 2 - data.count) }
        if data.count % 2 == 1 { data.append(0) }
        var packet = header
        packet += [UInt8(opDmx & 0xFF), UInt8(opDmx >> 8)]
        packet += [UInt8(protocolVersion >> 8), UInt8(protocolVersion & 0xFF)]
        packet += [sequence, 0]
        packet += [UInt8(universe & 0xFF), UInt8((universe >> 8) & 0x7F)]
        packet += [UInt8(data.count >> 8), UInt8(data.count & 0xFF)]
        return packet + data
    }

    /// The next sequence number after `sequence`: 1…255, never 0.
    public static func next(after sequence: UInt8) -> UInt8 { sequence == 255 ? 1 : sequence + 1 }
}
