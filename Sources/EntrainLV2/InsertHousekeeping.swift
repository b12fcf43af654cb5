import Foundation

/// A live client's chores for its chains, four times a second: free what the engine handed
/// back, and publish the plugins' latency when it changes (`latencyChanged` then tells JACK).
public final class InsertHousekeeping: @unchecked Sendable {
    private let timer: DispatchSourceTimer

    public init(_ chains: InsertChains, latencyChanged: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "entrain.inserts"))
        timer.schedule(deadline: .now(), repeating: 0.25)
        timer.setEventHandler {
            chains.collect()
            if chains.publishLatency() { latencyChanged() }
        }
        timer.resume()
    }

    public func stop() { timer.cancel() }

    deinit { timer.cancel() }
}
