import Foundation

/// One output's frames as packets of its protocol, with the protocol's running state: DDP's
/// sequence, each universe's sACN or Art-Net sequence, the sACN source identity. sACN and
/// Art-Net carry whole pixels per universe (170 RGB, 128 RGBW), universe after universe from
/// the first; the packets are the DMX senders' own builders.
struct PixelWire {
    let spec: PixelOutputSpec
    private var sequences: [UInt8]
    /// The sACN component identifier: random per run, the same for all of this output's packets.
    private let cid = withUnsafeBytes(of: UUID().uuid) { Array($0) }

    init(_ spec: PixelOutputSpec) {
        self.spec = spec
        let streams = spec.wire == .ddp ? 1 : spec.universes
        sequences = [UInt8](repeating: spec.wire == .sacn ? 0 : 1, count: streams)
    }

    /// The packets of one frame of `data` (bytesPerPixel × pixels, wire order); `terminated`
    /// marks sACN's stream-terminated packets (the last ones on exit).
    mutating func packets(_ data: [UInt8], terminated: Bool = false) -> [[UInt8]] {
        switch spec.wire {
        case .ddp:
            defer { sequences[0] = DDPPacket.next(after: sequences[0]) }
            return DDPPacket.frame(data, bytesPerPixel: spec.bytesPerPixel, sequence: sequences[0])
        case .sacn, .artnet:
            let span = spec.pixelsPerUniverse * spec.bytesPerPixel
            return (0..<spec.universes).map { u in
                let slots = Array(data[(u * span)..<min(data.count, (u + 1) * span)])
                defer { sequences[u] = spec.wire == .sacn ? sequences[u] &+ 1 : ArtNetPacket.next(after: sequences[u]) }
                if spec.wire == .sacn {
                    return SACNPacket.data(cid: cid, sourceName: "entrain \(spec.name)", priority: SACNPacket.defaultPriority,
                                           sequence: sequences[u], options: terminated ? SACNPacket.streamTerminated : 0,
                                           universe: spec.universe + u, channels: slots)
                }
                return ArtNetPacket.dmx(sequence: sequences[u], universe: spec.universe + u, channels: slots)
            }
        }
    }
}
