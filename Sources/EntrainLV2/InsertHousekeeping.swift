import EntrainService

/// A live client's chores for its chains, four times a second on its own thread
/// (`entrain-inserts`): free what the engine handed back, and publish the plugins' latency when
/// it changes (`latencyChanged` then tells JACK). `stop` returns once the last turn has ended, so
/// no latency report runs after the client has closed.
public final class InsertHousekeeping: Sendable {
    private let service = ServiceThread("entrain-inserts", every: 0.25)

    public init(_ chains: InsertChains, latencyChanged: @escaping @Sendable () -> Void) {
        service.start { _ in
            chains.collect()
            if chains.publishLatency() { latencyChanged() }
        }
    }

    public func stop() { service.stop() }
}
