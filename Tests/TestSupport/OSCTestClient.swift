import EntrainControl
import Foundation

/// An OSC peer for tests: the product's OSCClient plus waiting for replies within a time window.
public final class OSCTestClient {
    let client: OSCClient
    public var port: UInt16 { client.local.port }

    /// Sends to 127.0.0.1:`targetPort`; listens on `bindPort` (0 = any free port).
    public init(targetPort: Int, bindPort: Int = 0) throws {
        client = try OSCClient(port: targetPort, localPort: bindPort)
    }

    public func send(bytes: [UInt8]) { client.send(bytes: bytes) }
    public func send(_ address: String, _ arguments: [OSCValue] = []) { client.send(OSCMessage(address, arguments)) }

    /// Messages received within `timeout` seconds, or up to the first that `done` accepts.
    /// (A fixed window: a subscriber receives meters forever, so "until quiet" never comes.)
    public func receive(timeout: TimeInterval = 0.5, until done: ((OSCMessage) -> Bool)? = nil) -> [OSCMessage] {
        var out: [OSCMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let messages = client.drain(waitMilliseconds: 10)
            out += messages
            if let done, messages.contains(where: done) { return out }
        }
        return out
    }

    /// Like `receive`, with each message's bundle time tag and arrival time (Unix seconds), until
    /// `timeout` or until `done` says the awaited event happened, then `linger` seconds more.
    public func receiveTimed(timeout: TimeInterval, until done: (() -> Bool)? = nil,
                             linger: TimeInterval = 0) -> [(message: TimedMessage, arrival: Double)] {
        var out: [(message: TimedMessage, arrival: Double)] = []
        var deadline = Date().addingTimeInterval(timeout)
        var lingering = false
        while Date() < deadline {
            out += client.drainTimed(waitMilliseconds: 10)
            if !lingering, let done, done() {
                lingering = true
                deadline = min(deadline, Date().addingTimeInterval(linger))
            }
        }
        return out
    }

    /// Send and wait for the first reply on `reply` (default: the same address).
    public func request(_ address: String, _ arguments: [OSCValue] = [], reply: String? = nil,
                        timeout: TimeInterval = 2) -> OSCMessage? {
        client.request(OSCMessage(address, arguments), reply: reply ?? address, timeout: timeout)
    }
}
