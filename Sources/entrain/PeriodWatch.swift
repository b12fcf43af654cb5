import EntrainJACK
import Foundation
import Logging

/// Once a second, takes the process callback's slowest period from the client (which keeps it for
/// /status) and logs a period that overran its budget, with when it happened: an xrun's cause is
/// one slow period, and JACK's smoothed DSP load hides it.
struct PeriodWatch {
    private var lastRoll = Date()

    mutating func tick(client: JackClient, logger: Logger) {
        guard Date().timeIntervalSince(lastRoll) >= 1 else { return }
        lastRoll = Date()
        guard let slowest = client.takeSlowestPeriod(), slowest.share >= 1 else { return }
        logger.warning("a period overran: the process callback took \(Self.describe(slowest, sampleRate: client.sampleRate))")
    }

    /// "0.812 ms of 0.667 ms (122 %) at 12.34 s"
    static func describe(_ time: PeriodTime, sampleRate: Double) -> String {
        String(format: "%.3f ms of %.3f ms (%.0f %%) at %.2f s", Double(time.micros) / 1000, Double(time.periodMicros) / 1000,
               time.share * 100, Double(time.frame) / max(1, sampleRate))
    }
}
