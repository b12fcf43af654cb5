import Foundation

/// An sACN receiver in a universe's multicast group, as a fixture on the network joins it.
extension DMXTestReceiver {
    /// Why a multicast receiver cannot work here: a socket call's name and errno.
    public struct MulticastUnavailable: Error, CustomStringConvertible {
        public var call: String
        public var code: Int32
        public var description: String { "\(call): errno \(code) (\(String(cString: strerror(code))))" }
    }

    /// Bound to `port` on every address and joined to `group` (dotted quad) on the interface the
    /// kernel routes the group through, so this host's own sends come back by IP_MULTICAST_LOOP.
    /// Before returning it sends itself a datagram through the group and waits for it: a machine
    /// that cannot carry multicast to itself throws `MulticastUnavailable` with the errno.
    public static func multicast(group: String, port: Int) throws -> DMXTestReceiver {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        func fail(_ call: String, _ code: Int32 = errno) -> MulticastUnavailable {
            close(fd)
            return MulticastUnavailable(call: call, code: code)
        }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw fail("bind") }
        var membership = ip_mreq()
        membership.imr_multiaddr.s_addr = inet_addr(group)
        membership.imr_interface.s_addr = INADDR_ANY
        guard setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership, socklen_t(MemoryLayout<ip_mreq>.size)) == 0 else {
            throw fail("IP_ADD_MEMBERSHIP")
        }
        // The probe: one datagram to the group from another socket, looped back to us.
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(probe) }
        var loop: UInt8 = 1
        setsockopt(probe, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, &loop, 1)
        var target = address
        target.sin_addr.s_addr = inet_addr(group)
        let sent = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(probe, "probe", 5, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard sent == 5 else { throw fail("sendto") }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 16)
        guard recv(fd, &buffer, buffer.count, 0) == 5 else { throw fail("recv (the looped-back probe)", errno == 0 ? EAGAIN : errno) }
        return DMXTestReceiver(.sACN, socket: fd, port: port)
    }
}
