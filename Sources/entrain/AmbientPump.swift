import EntrainAmbient
import Foundation
import Logging
import Synchronization

/// Keeps the live conductor's phrase grid queued: `pump()` every 50 ms on its own thread, so
/// the ambient engine never waits on the run loop (which sleeps, fades out, swaps engines).
/// The conductor queues 250 ms ahead, so a late wake-up costs nothing audible.
final class AmbientPump: Sendable {
    static let interval: useconds_t = 50_000
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    init(_ conductor: AmbientConductor, logger: Logger) {
        let thread = Thread { [self] in
            var lastError = ""
            while running.load(ordering: .relaxed) {
                do {
                    try conductor.pump()
                    lastError = ""
                } catch {
                    // Say it once per kind of failure, not 20 times a second.
                    if "\(error)" != lastError { logger.error("ambient engine: \(error)") }
                    lastError = "\(error)"
                }
                usleep(Self.interval)
            }
            finished.signal()
        }
        thread.name = "ambient-pump"
        thread.start()
    }

    /// Stop and wait for the thread's last pump.
    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
    }
}
