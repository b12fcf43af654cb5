import EntrainEngine
import Synchronization

/// The engine host the control plane talks to. The run loop replaces it when JACK's sample rate
/// changes; OSC handlers and feedback always reach the current one through here.
public final class CurrentEngine: Sendable {
    private let slot: Mutex<EngineHost>

    public init(_ host: EngineHost) { slot = Mutex(host) }

    public var host: EngineHost { slot.withLock { $0 } }

    public func replace(with host: EngineHost) { slot.withLock { $0 = host } }
}
