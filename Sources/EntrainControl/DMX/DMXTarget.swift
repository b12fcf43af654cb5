import Foundation

/// Where DMX frames go and in which protocol, with the protocol's running state (sequence
/// numbers, the sACN source identity).
public struct DMXTarget: Sendable, CustomStringConvertible {
    public enum Wire: String, Sendable { case artNet = "Art-Net", sACN = "sACN" }
    public let kind: Wire
    public let address: SocketAddress
    var sequence: UInt8
    /// The sACN component identifier: random per run (a UUID), the same for all its packets.
    let cid: [UInt8]

    public init(_ kind: Wire, address: SocketAddress) {
        self.kind = kind
        self.address = address
        sequence = kind == .artNet ? 1 : 0
        cid = withUnsafeBytes(of: UUID().uuid) { Array($0) }
    }

    /// "HOST[:PORT]" for Art-Net (default port 6454) or sACN unicast (default 5568).
    public static func parse(_ kind: Wire, _ text: String) throws -> DMXTarget {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let defaultPort = kind == .artNet ? ArtNetPacket.port : SACNPacket.port
        let port = parts.count == 2 ? Int(parts[1]) : Int(defaultPort)
        guard parts.count <= 2, let port, (1...65535).contains(port), let address = SocketAddress(host: String(parts[0]), port: port) else {
            throw DMXTargetError(text: text, kind: kind)
        }
        return DMXTarget(kind, address: address)
    }

    /// The packet for `channels` (512 values), advancing the sequence number.
    mutating func packet(_ channels: [UInt8], settings: DMXSettings, terminated: Bool = false) -> [UInt8] {
        defer { sequence = kind == .artNet ? ArtNetPacket.next(after: sequence) : sequence &+ 1 }
        switch kind {
        case .artNet:
            return ArtNetPacket.dmx(sequence: sequence, universe: settings.universe, channels: channels)
        case .sACN:
            return SACNPacket.data(cid: cid, sourceName: "entrain", priority: settings.priority, sequence: sequence,
                                   options: terminated ? SACNPacket.streamTerminated : 0, universe: settings.universe, channels: channels)
        }
    }

    public var description: String { "\(kind.rawValue) to \(address)" }
}

public struct DMXTargetError: Error, CustomStringConvertible {
    let text: String
    let kind: DMXTarget.Wire
    public var description: String {
        "\(kind == .artNet ? "--artnet" : "--sacn") expects an IPv4 address with an optional port (HOST[:PORT], like 192.168.1.50 or 2.255.255.255:6454), got '\(text)'"
    }
}
