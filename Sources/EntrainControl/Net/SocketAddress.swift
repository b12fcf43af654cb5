import Foundation

/// An IPv4 address and port, comparable and printable.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// Host byte order.
    public var ip: UInt32
    public var port: UInt16

    public init(ip: UInt32, port: UInt16) {
        self.ip = ip
        self.port = port
    }

    /// "1.2.3.4" (or "localhost") and a port.
    public init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        let name = host == "localhost" ? "127.0.0.1" : host
        var address = in_addr()
        guard inet_pton(AF_INET, name, &address) == 1 else { return nil }
        ip = UInt32(bigEndian: address.s_addr)
        self.port = UInt16(port)
    }

    /// "HOST:PORT".
    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1]) else { return nil }
        self.init(host: String(parts[0]), port: port)
    }

    init(_ raw: sockaddr_in) {
        ip = UInt32(bigEndian: raw.sin_addr.s_addr)
        port = UInt16(bigEndian: raw.sin_port)
    }

    var raw: sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = ip.bigEndian
        return a
    }

    public var isLoopback: Bool { ip >> 24 == 127 }
    public var host: String { "\(ip >> 24).\((ip >> 16) & 255).\((ip >> 8) & 255).\(ip & 255)" }
    public var description: String { "\(host):\(port)" }
}

/// Which senders may talk to us: loopback always, plus the given IPv4 networks (or anyone).
public struct AllowList: Sendable, Equatable {
    public struct Network: Sendable, Equatable {
        let base: UInt32
        let mask: UInt32
        func contains(_ ip: UInt32) -> Bool { ip & mask == base & mask }
    }

    public var anyone = false
    public var networks: [Network] = []

    public init() {}

    /// "any", or a comma-separated list of "a.b.c.d" / "a.b.c.d/n".
    public init(parsing text: String) throws {
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if item == "any" { anyone = true; continue }
            let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)  // "10.0.0.0/" is refused
            guard let address = SocketAddress(host: String(parts[0]), port: 0) else { throw AllowListError.bad(item) }
            var bits = 32
            if parts.count == 2 {
                guard let n = Int(parts[1]), (0...32).contains(n) else { throw AllowListError.bad(item) }
                bits = n
            }
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
            networks.append(Network(base: address.ip, mask: mask))
        }
    }

    public func allows(_ sender: SocketAddress) -> Bool {
        anyone || sender.isLoopback || networks.contains { $0.contains(sender.ip) }
    }
}

public enum AllowListError: Error, CustomStringConvertible {
    case bad(String)
    public var description: String {
        switch self {
        case .bad(let item): "'\(item)' is not an IPv4 address or network (like 192.168.1.0/24), nor 'any'"
        }
    }
}
