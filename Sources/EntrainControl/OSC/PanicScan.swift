/// Finds `/panic` in a packet without decoding it: how a packet dropped by the rate limit is
/// still checked for the one message that must always act. Every OSC message starts on a 4-byte
/// boundary (at 0, or inside a bundle after its 4-byte size), so the padded address "/panic\0\0"
/// is looked for at those offsets only. A hit is confirmed by decoding.
enum PanicScan {
    private static let pattern: [UInt8] = Array("/panic".utf8) + [0, 0]

    static func mayContainPanic(_ packet: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + pattern.count <= packet.count {
            if packet[offset] == 0x2F, zip(pattern.indices, pattern).allSatisfy({ packet[offset + $0] == $1 }) { return true }
            offset += 4
        }
        return false
    }
}
