import CJack
import EntrainEngine

extension JackClient {
    /// The engine's output latency changed (a hosted plugin reports a new one): tell JACK, which
    /// asks every client again, so what our ports report follows.
    public func outputLatencyChanged(of host: EngineHost) {
        reportOwnLatency(of: host)
        held.withLock { held in
            if let client = held.client, held.active { jack_recompute_total_latencies(client) }
        }
    }
}
