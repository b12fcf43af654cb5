import Foundation

/// JACK's table of running servers, read only: the shared-memory registry (/dev/shm/jack-shm-registry)
/// has room for 8 servers. A server unregisters when it exits cleanly (SIGTERM); one that is
/// SIGKILLed keeps its place, and JACK frees a dead server's place only for a server of the same
/// name. Test servers have unique names, so eight killed ones fill the table, and every new server
/// then fails with "Too many servers already active".
public enum JackServerRegistry {
    public struct Entry: Sendable, Equatable {
        public let pid: pid_t
        public let serverName: String
        /// Its process is gone (JACK's own test: kill(pid, 0) says no such process).
        public var isStale: Bool { kill(pid, 0) != 0 && errno == ESRCH }
    }

    static let path = "/dev/shm/jack-shm-registry"
    // jackd2's shm.h: magic "JACK", then 8 × { pid_t pid; char name[257] } (4-byte aligned) after a 24-byte header.
    static let magic: UInt32 = 0x4A41_434B
    static let headerBytes = 24, entryBytes = 264, servers = 8

    /// The servers registered now; empty when there is no registry or its layout is not the one known.
    public static func entries() -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path), data.count >= headerBytes + servers * entryBytes else { return [] }
        let bytes = [UInt8](data)
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        guard word(0) == magic, word(16) == UInt32(headerBytes + servers * entryBytes) else { return [] }
        return (0..<servers).compactMap { i in
            let at = headerBytes + i * entryBytes
            let pid = pid_t(bitPattern: word(at))
            let field = bytes[(at + 4)..<(at + entryBytes)].prefix { $0 != 0 }
            // The name is stored as "jack-<uid>:<server name>:".
            let parts = String(decoding: field, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
            guard pid != 0, parts.count >= 3 else { return nil }
            return Entry(pid: pid, serverName: parts.dropFirst().dropLast().joined(separator: ":"))
        }
    }
}
