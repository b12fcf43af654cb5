import EntrainAmbient
import EntrainService
import Logging

/// Keeps the live conductor's phrase grid queued: `pump()` every 50 ms on its own thread, so
/// the ambient engine never waits on the run loop (which sleeps, fades out, swaps engines).
/// The conductor queues 250 ms ahead, so a late wake-up costs nothing audible.
final class AmbientPump: @unchecked Sendable {
    static let interval = 0.05
    private let service = ServiceThread("entrain-ambient", every: interval)
    /// The last failure said (the thread's own): said once per kind, not 20 times a second.
    private var lastError = ""

    init(_ conductor: AmbientConductor, logger: Logger) {
        service.start { [self] _ in
            do {
                try conductor.pump()
                lastError = ""
            } catch {
                if "\(error)" != lastError { logger.error("ambient engine: \(error)") }
                lastError = "\(error)"
            }
        }
    }

    /// Stop and wait for the thread's last pump.
    func stop() { service.stop() }
}
