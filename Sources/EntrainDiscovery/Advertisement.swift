import Foundation
import Logging

/// mDNS/DNS-SD advertisement through Avahi: `_osc._udp` for OSC and `_oscjson._tcp` for
/// OSCQuery, published by Avahi's own `avahi-publish` (Debian's avahi-utils) for as long as we
/// run, under the JACK client's name (so a second instance, `entrain-01`, is found as itself).
/// Only addresses where the servers listen are advertised: nothing when they listen on loopback
/// alone (no other machine can reach it), only the bound address when it is one address. What
/// Avahi refuses is reported for what it is: a name collision, or no avahi-daemon.
public final class Advertisement: @unchecked Sendable {  // the processes are touched on start and stop only
    private let processes: [Process]

    private init(processes: [Process]) { self.processes = processes }

    /// Where the servers listen, as advertising sees it.
    public enum Reach: Equatable, Sendable {
        /// Loopback only: nothing to advertise on a network.
        case loopback
        /// Every interface (0.0.0.0): the host's own name and addresses.
        case everywhere
        /// One address: a host name of our own that resolves to it alone.
        case only(String)

        public init(bind: String) {
            if bind == "0.0.0.0" { self = .everywhere } else if bind == "localhost" || bind.hasPrefix("127.") { self = .loopback } else { self = .only(bind) }
        }
    }

    public static func start(name: String, bind: String, oscPort: Int, queryPort: Int, logger: Logger) -> Advertisement? {
        let reach = Reach(bind: bind)
        if reach == .loopback {
            logger.warning("--advertise: OSC and OSCQuery listen on \(bind) only, which no other machine can reach; not advertised (listen on a network with --osc-bind and --osc-allow)")
            return nil
        }
        guard let tool = ["/usr/bin/avahi-publish", "/usr/local/bin/avahi-publish"].first(where: FileManager.default.isExecutableFile) else {
            logger.warning("--advertise: avahi-publish is not installed (Debian: avahi-utils); not advertised")
            return nil
        }
        var runs: [[String]] = []
        var place = "on every interface"
        var hostArguments: [String] = []
        if case .only(let address) = reach {
            let host = hostName(for: name)
            runs.append(["-a", "-R", host, address])
            hostArguments = ["-H", host]
            place = "at \(address) (\(host))"
        }
        for (type, port) in [("_osc._udp", oscPort), ("_oscjson._tcp", queryPort)] { runs.append(["-s"] + hostArguments + [name, type, "\(port)", InstanceBrowser.mark]) }
        var started: [(Process, Pipe)] = []
        for arguments in runs {
            let process = Process(), errors = Pipe()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            do { try process.run() } catch {
                logger.warning("--advertise: cannot start avahi-publish: \(error)")
                continue
            }
            started.append((process, errors))
        }
        // Avahi answers within moments: a refusal ends the tool at once, with its reason.
        let deadline = Date().addingTimeInterval(0.5)
        while Date() < deadline && started.allSatisfy({ $0.0.isRunning }) { usleep(20_000) }
        let refusals = started.filter { !$0.0.isRunning }.map { String(decoding: $0.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        if let reason = refusals.first {
            for (process, _) in started where process.isRunning { process.terminate() }
            logger.warning("--advertise: \(explain(reason, name: name)); not advertised")
            return nil
        }
        logger.info("advertised '\(name)' as _osc._udp on \(oscPort) and _oscjson._tcp on \(queryPort) \(place) (mDNS)")
        return Advertisement(processes: started.map(\.0))
    }

    /// What avahi-publish's complaint means for the user.
    static func explain(_ message: String, name: String) -> String {
        let text = message.lowercased()
        if text.contains("collision") || text.contains("conflict") {
            return "the name '\(name)' is already advertised on this network (another entrain with the same name? give this one another --name)"
        }
        if text.contains("daemon not running") || text.contains("daemon is not running") || text.contains("failed to create client") {
            return "avahi-daemon is not running"
        }
        let line = message.split(separator: "\n").last.map(String.init) ?? ""
        return "avahi-publish refused" + (line.isEmpty ? "" : ": \(line)")
    }

    /// A host name for the one address we listen on: the JACK client's name made a DNS label.
    static func hostName(for name: String) -> String {
        let label = String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(50))
        return "\(label.isEmpty ? "entrain" : label)-osc.local"
    }

    public func stop() {
        for process in processes where process.isRunning { process.terminate() }
    }
}
