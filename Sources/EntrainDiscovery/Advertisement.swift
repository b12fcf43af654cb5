import Foundation
import Logging

/// mDNS/DNS-SD advertisement through Avahi: `_osc._udp` for OSC and `_oscjson._tcp` for
/// OSCQuery, published by Avahi's own `avahi-publish` (Debian's avahi-utils) for as long as we
/// run. Without a running avahi-daemon it logs why and the client goes on unadvertised.
public final class Advertisement: @unchecked Sendable {  // the processes are touched on start and stop only
    private let processes: [Process]

    private init(processes: [Process]) { self.processes = processes }

    public static func start(name: String, oscPort: Int, queryPort: Int, logger: Logger) -> Advertisement? {
        guard let tool = ["/usr/bin/avahi-publish", "/usr/local/bin/avahi-publish"].first(where: FileManager.default.isExecutableFile) else {
            logger.warning("--advertise: avahi-publish is not installed (Debian: avahi-utils); not advertised")
            return nil
        }
        var started: [Process] = []
        for (type, port) in [("_osc._udp", oscPort), ("_oscjson._tcp", queryPort)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = ["-s", name, type, "\(port)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch {
                logger.warning("--advertise: cannot start avahi-publish: \(error)")
                continue
            }
            started.append(process)
        }
        usleep(300_000)
        if started.contains(where: { !$0.isRunning }) {
            logger.warning("--advertise: avahi-publish stopped at once (is avahi-daemon running?); not advertised")
        } else {
            logger.info("advertised '\(name)' as _osc._udp on \(oscPort) and _oscjson._tcp on \(queryPort) (mDNS)")
        }
        return Advertisement(processes: started)
    }

    public func stop() {
        for process in processes where process.isRunning { process.terminate() }
    }
}
