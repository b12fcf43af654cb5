import Foundation

/// Loopback socket helpers for tests.
public enum Loopback {
    /// Bind `fd` to 127.0.0.1:`port`; true on success.
    @discardableResult
    public static func bind(_ fd: Int32, port: Int) -> Bool { call(port) { Glibc.bind(fd, $0, $1) } }

    /// Connect `fd` to 127.0.0.1:`port`; true on success.
    public static func connect(_ fd: Int32, port: Int) -> Bool { call(port) { Glibc.connect(fd, $0, $1) } }

    private static func call(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }
}
