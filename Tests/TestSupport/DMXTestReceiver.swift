import Foundation

/// One DMX frame as a receiver reads it off the wire, with the protocol's header fields.
public struct ReceivedDMX: Sendable {
    public var sequence: Int
    public var universe: Int
    /// sACN only (Art-Net has none).
    public var priority: Int?
    public var terminated = false
    public var sourceName: String?
    /// Slot 1 is `channels[0]`.
    public var channels: [UInt8]
    /// When it arrived (monotonic seconds).
    public var arrival: Double
}

/// Decoders for the two DMX-over-IP protocols, written from their documents field by field
/// (independently of the sender's builders): nil for anything that is not a valid packet.
public enum DMXWire {
    /// Art-Net 4 ArtDmx: ID "Art-Net\0", OpCode 0x5000 little-endian, ProtVer ≥ 14 big-endian,
    /// Sequence, Physical, SubUni, Net, Length (big-endian, even, 2–512), Data.
    public static func artDmx(_ p: [UInt8], arrival: Double = 0) -> ReceivedDMX? {
        guard p.count >= 20, Array(p[0..<8]) == [0x41, 0x72, 0x74, 0x2D, 0x4E, 0x65, 0x74, 0x00] else { return nil }
        guard Int(p[8]) | Int(p[9]) << 8 == 0x5000 else { return nil }
        guard Int(p[10]) << 8 | Int(p[11]) >= 14 else { return nil }
        let universe = Int(p[15] & 0x7F) << 8 | Int(p[14])
        let length = Int(p[16]) << 8 | Int(p[17])
        guard length >= 2, length <= 512, length % 2 == 0, p.count == 18 + length else { return nil }
        return ReceivedDMX(sequence: Int(p[12]), universe: universe, priority: nil, channels: Array(p[18...]), arrival: arrival)
    }

    /// ANSI E1.31 data packet: root layer (preamble 0x0010, post-amble 0, "ASC-E1.17\0\0\0",
    /// flags+length, vector 0x00000004, CID), framing layer (flags+length, vector 0x00000002,
    /// 64-byte source name, priority, sync address, sequence, options, universe), DMP layer
    /// (flags+length, vector 0x02, type 0xA1, first address 0, increment 1, count, start code, slots).
    public static func e131(_ p: [UInt8], arrival: Double = 0) -> ReceivedDMX? {
        func u16(_ i: Int) -> Int { Int(p[i]) << 8 | Int(p[i + 1]) }
        func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
        guard p.count >= 126 else { return nil }
        guard u16(0) == 0x0010, u16(2) == 0, Array(p[4..<16]) == Array("ASC-E1.17".utf8) + [0, 0, 0] else { return nil }
        // Each layer's flags are 0x7 and its length counts from its own flags field to the end.
        for start in [16, 38, 115] {
            guard p[start] >> 4 == 0x7, u16(start) & 0x0FFF == p.count - start else { return nil }
        }
        guard u32(18) == 4, u32(40) == 2 else { return nil }
        let nameBytes = p[44..<108].prefix { $0 != 0 }
        let priority = Int(p[108])
        guard priority <= 200 else { return nil }
        let universe = u16(113)
        guard (1...63999).contains(universe) else { return nil }
        guard p[117] == 0x02, p[118] == 0xA1, u16(119) == 0, u16(121) == 1 else { return nil }
        let count = u16(123)
        guard count >= 1, count <= 513, p.count == 125 + count, p[125] == 0 else { return nil }
        return ReceivedDMX(sequence: Int(p[111]), universe: universe, priority: priority, terminated: p[112] & 0x40 != 0,
                           sourceName: String(decoding: nameBytes, as: UTF8.self), channels: Array(p[126...]), arrival: arrival)
    }
}

/// A UDP receiver on 127.0.0.1 that keeps every valid frame of one protocol, with its arrival time.
public final class DMXTestReceiver: DatagramReceiver<ReceivedDMX>, @unchecked Sendable {
    public enum Kind: Sendable { case artNet, sACN }

    public convenience init(_ kind: Kind) throws {
        try self.init(decode: DMXTestReceiver.decoder(kind))
    }

    /// Receives on `fd`, already bound to `port` (and maybe in a multicast group), until stopped.
    convenience init(_ kind: Kind, socket fd: Int32, port: Int) {
        self.init(socket: fd, port: port, decode: DMXTestReceiver.decoder(kind))
    }

    static func decoder(_ kind: Kind) -> Decode {
        { bytes, arrival, _ in
            (kind == .artNet ? DMXWire.artDmx(bytes, arrival: arrival) : DMXWire.e131(bytes, arrival: arrival)).map { [$0] }
        }
    }
}
