import Foundation

/// Loopback socket helpers for tests.
public enum Loopback {
    /// Bind `fd` to 127.0.0.1:`port`; true on success.
    @discardableResult
    public static func bind(_ fd: Int32, port: Int) -> Bool { call(port) { Glibc.bind(fd, $0, $1) } }

    /// A random port for a test to bind or hand to a client, below the kernel's ephemeral range
    /// (/proc/sys/net/ipv4/ip_local_port_range, 32768 up by default): a port a test frees for a
    /// moment (a client restarted on it) is then never given to another process's socket as its
    /// ephemeral port (a restarted client once found its OSC port taken beside the other shards).
    public static func candidatePort() -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) } ?? []
        let ephemeralLow = range.first ?? 32_768
        return ephemeralLow > 12_000 ? Int.random(in: 10_000..<ephemeralLow) : Int.random(in: 20_000...60_000)
    }

    /// Connect `fd` to 127.0.0.1:`port`; true on success.
    public static func connect(_ fd: Int32, port: Int) -> Bool { call(port) { Glibc.connect(fd, $0, $1) } }

    private static func call(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }

    /// This machine's first IPv4 address that is not loopback (to connect from, as another host would), or nil.
    public static func nonLoopbackIPv4() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var item = list
        while let entry = item {
            defer { item = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var host = [CChar](repeating: 0, count: 64)
            var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            inet_ntop(AF_INET, &v4, &host, 64)
            let text = String(cString: host)
            if !text.hasPrefix("127.") { return text }
        }
        return nil
    }
}
