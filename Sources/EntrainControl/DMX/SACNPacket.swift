/// The E1.31 (sACN, streaming DMX over ACN) data packet: a root layer, a framing layer and a
/// DMP layer, then the start code and the slots.
///
/// Root layer: preamble size 0x0010, post-amble 0, the ACN packet identifier
/// "ASC-E1.17" and three zero bytes, flags and length (0x7000 | the bytes from there to the
/// end), vector 4 (E1.31 data), the sender's 16-byte CID. Framing layer: flags and length,
/// vector 2 (data packet), a 64-byte source name (UTF-8, zero-terminated), priority (0–200),
/// synchronisation address (0: none), sequence number, options (0x40: stream terminated),
/// universe (1–63999). DMP layer: flags and length, vector 2 (set property), address and data
/// type 0xA1, first property address 0, address increment 1, property value count (slots + 1),
/// then the start code 0 and the slots. All multi-byte fields are big-endian.
public enum SACNPacket {
    public static let port: UInt16 = 5568
    public static let universes: ClosedRange<Int> = 1...63999
    public static let defaultPriority = 100
    public static let identifier: [UInt8] = Array("ASC-E1.17".utf8) + [0, 0, 0]
    public static let streamTerminated: UInt8 = 0x40
    /// Where the framing and DMP layers start, and a full packet's size (512 slots).
    public static let framingOffset = 38, dmpOffset = 115, fullSize = 638

    /// One data packet with all 512 slots (`channels` padded with zeros).
    public static func data(cid: [UInt8], sourceName: String, priority: Int, sequence: UInt8,
                            options: UInt8 = 0, universe: Int, channels: [UInt8]) -> [UInt8] {
        let slots = Array(channels.prefix(512)) + [UInt8](repeating: 0, count: max(0, 512 - channels.count))
        var packet: [UInt8] = [0x00, 0x10, 0x00, 0x00] + identifier
        packet += flagsAndLength(fullSize - 16) + [0, 0, 0, 4] + Array((cid + [UInt8](repeating: 0, count: 16)).prefix(16))
        var name = Array(sourceName.utf8.prefix(63))
        name += [UInt8](repeating: 0, count: 64 - name.count)
        packet += flagsAndLength(fullSize - framingOffset) + [0, 0, 0, 2] + name
        packet += [UInt8(clamping: priority), 0, 0, sequence, options, UInt8(universe >> 8), UInt8(universe & 0xFF)]
        packet += flagsAndLength(fullSize - dmpOffset) + [0x02, 0xA1, 0x00, 0x00, 0x00, 0x01, 0x02, 0x01]
        return packet + [0] + slots
    }

    /// A universe's multicast group: 239.255.high.low.
    public static func multicastGroup(universe: Int) -> SocketAddress {
        SocketAddress(ip: 0xEFFF_0000 | UInt32(universe & 0xFFFF), port: port)
    }

    static func flagsAndLength(_ length: Int) -> [UInt8] { [UInt8(0x70 | (length >> 8)), UInt8(length & 0xFF)] }
}
