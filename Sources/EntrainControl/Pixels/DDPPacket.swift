/// DDP (Distributed Display Protocol, 3waylabs; WLED's native UDP input) data packets.
///
/// A 10-byte header, then the pixel bytes: flags (version 1 in the top two bits, 0x40; the
/// push bit 0x01 on a frame's last packet, telling the display to show what it has); a sequence
/// number (1…15, 0 would mean none); the data type (0x0B: RGB, 8 bits a channel; 0x1B: RGBW);
/// the destination (1: the display); the byte offset of this packet's data in the frame
/// (32 bits) and its length (16 bits), both big-endian. At most 1,440 data bytes a packet
/// (480 RGB pixels), so a frame of more goes in several packets.
public enum DDPPacket {
    public static let port: UInt16 = 4048
    public static let maximumData = 1440
    public static let version1: UInt8 = 0x40
    public static let push: UInt8 = 0x01
    public static let typeRGB: UInt8 = 0x0B
    public static let typeRGBW: UInt8 = 0x1B
    public static let displayID: UInt8 = 1

    /// The packets of one frame: `data` cut at pixel boundaries into pieces of at most
    /// `maximumData` bytes, the last one pushed.
    public static func frame(_ data: [UInt8], bytesPerPixel: Int, sequence: UInt8) -> [[UInt8]] {
        let chunk = maximumData / bytesPerPixel * bytesPerPixel
        var packets: [[UInt8]] = []
        var offset = 0
        repeat {
            let end = min(data.count, offset + chunk)
            let last = end == data.count
            let length = end - offset
            var packet: [UInt8] = [version1 | (last ? push : 0), sequence, bytesPerPixel == 4 ? typeRGBW : typeRGB, displayID]
            packet += [UInt8(offset >> 24 & 0xFF), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
            packet += [UInt8(length >> 8), UInt8(length & 0xFF)]
            packet += data[offset..<end]
            packets.append(packet)
            offset = end
        } while offset < data.count
        return packets
    }

    /// The sequence number after `sequence`: 1…15, never 0.
    public static func next(after sequence: UInt8) -> UInt8 { sequence >= 15 ? 1 : sequence + 1 }
}
