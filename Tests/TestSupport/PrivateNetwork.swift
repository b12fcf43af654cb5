import Foundation

/// A private network for tests of multicast (Ableton Link, mDNS): a network namespace with a
/// veth pair of its own, so discovery never reaches the host's interfaces. Everything that
/// joins (entrain, peers, avahi-daemon) runs inside it through `ip netns exec`; JACK's sockets
/// and shared memory are not network-scoped, so clients inside still reach the test's JACK
/// server. Removed when the object goes away.
public final class PrivateNetwork {
    public let namespace: String
    /// The namespace's own IPv4 address (on its veth).
    public let address: String
    private let hostSide: String

    public init() throws {
        let tag = "\(getpid() % 100_000)x\(UInt16.random(in: 0...UInt16.max))"
        namespace = "entrain-link-\(tag)"
        hostSide = "elk\(tag)".prefix(15).description
        let peerSide = "elp\(tag)".prefix(15).description
        // Both ends of the pair inside the namespace: one carries the session's address, the
        // other gives it a carrier. Loopback up too (some Link builds look at it).
        address = "10.\(77 + Int.random(in: 0...100)).\(Int.random(in: 0...250)).1"
        do {
            try Self.ip(["netns", "add", namespace])
            try Self.ip(["link", "add", hostSide, "type", "veth", "peer", "name", peerSide])
            try Self.ip(["link", "set", hostSide, "netns", namespace])
            try Self.ip(["link", "set", peerSide, "netns", namespace])
            try Self.ip(["-n", namespace, "addr", "add", address + "/24", "dev", hostSide])
            for device in [hostSide, peerSide, "lo"] { try Self.ip(["-n", namespace, "link", "set", device, "up"]) }
        } catch {
            remove()
            throw error
        }
    }

    deinit { remove() }

    /// The prefix that runs a command inside the namespace (it execs, keeping the pid).
    public var exec: [String] { ["/usr/sbin/ip", "netns", "exec", namespace] }

    /// Why a private network cannot be made here, or nil when it can (root, `ip`).
    public static var unavailable: String? {
        if getuid() != 0 { return "network namespaces need root" }
        if !FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") { return "no /usr/sbin/ip (iproute2)" }
        return nil
    }

    private func remove() {
        try? Self.ip(["netns", "delete", namespace])  // takes the veth pair with it
    }

    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let (status, output) = try runProcess("/usr/sbin/ip", arguments)
        guard status == 0 else { throw PrivateNetworkError.ip(arguments.joined(separator: " "), output) }
        return output
    }
}

public enum PrivateNetworkError: Error, CustomStringConvertible {
    case ip(String, String)

    public var description: String {
        switch self {
        case .ip(let command, let output): "ip \(command) failed: \(output)"
        }
    }
}
