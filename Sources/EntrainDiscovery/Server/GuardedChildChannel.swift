import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/WebSocket child channel with a `ConnectionGuard` put first in every
/// connection's pipeline, ahead of the HTTP decoder.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let rules: ConnectionGuard.Rules

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(rules: rules))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async { await inner.handle(value: value, logger: logger) }
}
