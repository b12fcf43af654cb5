import Foundation

/// The instances running on the network, as `--advertise` announces them: Avahi's own
/// `avahi-browse` (the counterpart of the `avahi-publish` that advertises), over both service
/// types, kept to services carrying our TXT mark (other OSC apps advertise `_osc._udp` too).
public enum InstanceBrowser {
    /// The TXT record every advertisement carries, so a browser tells entrain from other OSC apps.
    public static let mark = "app=entrain"

    public struct Instance: Equatable, Sendable {
        public let name: String
        /// The mDNS host name the services point at.
        public let host: String
        public let address: String
        public var oscPort: Int?
        public var queryPort: Int?
    }

    public struct BrowseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Browses for at most `seconds` (avahi-browse ends by itself once its cache is listed and
    /// every service resolved; the bound stops a resolver that never answers).
    public static func browse(seconds: Int = 5, environment: [String: String] = [:]) throws -> [Instance] {
        guard let tool = ["/usr/bin/avahi-browse", "/usr/local/bin/avahi-browse"].first(where: FileManager.default.isExecutableFile) else {
            throw BrowseError(description: "avahi-browse is not installed (Debian: avahi-utils)")
        }
        let runs = try ["_osc._udp", "_oscjson._tcp"].map { try startBrowse(tool: tool, type: $0, seconds: seconds, environment: environment) }
        let outputs = runs.map { run in
            (out: String(decoding: run.out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
             err: String(decoding: run.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        for run in runs { run.process.waitUntilExit() }
        if let complaint = outputs.map(\.err).first(where: { $0.lowercased().contains("daemon not running") }) {
            throw BrowseError(description: "avahi-daemon is not running (\(complaint.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        return instances(osc: outputs[0].out, query: outputs[1].out)
    }

    private static func startBrowse(tool: String, type: String, seconds: Int, environment: [String: String]) throws -> (process: Process, out: Pipe, err: Pipe) {
        let process = Process(), out = Pipe(), err = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["\(seconds)", tool, "--resolve", "--terminate", "--parsable", "--no-db-lookup", type]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Our copies of the write ends, closed, so the reads end when the browser does.
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        return (process, out, err)
    }

    /// Instances from avahi-browse's parsable output for `_osc._udp` and `_oscjson._tcp`:
    /// resolved IPv4 services with our mark, one per name and address (a service seen on two
    /// interfaces is one), sorted by name.
    static func instances(osc: String, query: String) -> [Instance] {
        var found: [Instance] = []
        func add(_ service: Resolved, isOSC: Bool) {
            let index = found.firstIndex { $0.name == service.name && $0.address == service.address } ?? {
                found.append(Instance(name: service.name, host: service.host, address: service.address))
                return found.count - 1
            }()
            if isOSC { found[index].oscPort = service.port } else { found[index].queryPort = service.port }
        }
        for service in resolved(osc) { add(service, isOSC: true) }
        for service in resolved(query) { add(service, isOSC: false) }
        return found.sorted { ($0.name, $0.address) < ($1.name, $1.address) }
    }

    struct Resolved {
        let name: String, host: String, address: String, port: Int
    }

    /// `=;iface;IPv4;name;type;domain;host;address;port;"txt" "txt"` lines with our mark.
    static func resolved(_ output: String) -> [Resolved] {
        output.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 10, f[0] == "=", f[2] == "IPv4", let port = Int(f[8]),
                  f[9].contains("\"\(mark)\"") else { return nil }
            return Resolved(name: unescape(f[3]), host: unescape(f[6]), address: f[7], port: port)
        }
    }

    /// avahi-browse writes a name's dots, backslashes and unprintable bytes escaped, DNS style:
    /// `\.`, `\\` and `\DDD` (a decimal byte, `\032` for a space).
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = rest.first else { bytes.append(byte); continue }
            let digits = rest.prefix(3)
            if digits.count == 3, digits.allSatisfy({ (48...57).contains($0) }),
               let value = UInt8(String(decoding: digits, as: UTF8.self)) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(next)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
