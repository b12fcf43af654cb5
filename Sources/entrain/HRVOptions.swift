import ArgumentParser
import EntrainControl
import Foundation
import Logging

/// The HRV options of `entrain run`: a port of its own for heart data, and a recording.
struct HRVOptions: ParsableArguments {
    @Option(name: .customLong("hrv-port"), help: ArgumentHelp("Also take heart data (RR intervals, docs/hrv.md) on this UDP port; off by default, never 9000 unless asked (VRChat's).", valueName: "port"))
    var port: Int?
    @Option(name: .customLong("hrv-record"), help: ArgumentHelp("Record every HRV update to this file, one JSON line each (replaced if it exists).", valueName: "file.jsonl"))
    var record: String?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--hrv-port must be 0–65535") }
    }

    /// The monitor, recording from the start when asked.
    func monitor(logger: Logger) throws -> HRVMonitor {
        let monitor = HRVMonitor(recordings: NamedStore.dataDirectory().appendingPathComponent("recordings"), logger: logger)
        if let record {
            do { try monitor.startRecording(to: record) } catch { throw ValidationError("--hrv-record: \(error)") }
        }
        return monitor
    }

    /// The heart-data port, listening (nil without --hrv-port), on the OSC server's address and allow-list.
    func listener(_ controller: HRVController, osc: OSCOptions, logger: Logger) throws -> HRVListener? {
        guard let port else { return nil }
        let configuration = try osc.configuration()
        let listener = try HRVListener(bind: configuration.bind, port: port, allow: configuration.allow, controller: controller, logger: logger)
        listener.start()
        logger.info("heart data on udp://\(listener.address)")
        return listener
    }
}
