import EntrainControl
import TestSupport

/// What a controller's test sweep needs of the OSC link: a send, then a query that is always
/// answered (after any error the send got), so the answer or the error is known without a guess
/// at how long to wait.
extension OSCTestClient {
    /// Sends `arguments` to `path`, then `query` (a query of the value, or a ping): the reply, or
    /// the error the send got.
    func exchange(_ path: String, _ arguments: [OSCValue], then query: String, reply: String) -> (reply: OSCMessage?, error: String?) {
        send(path, arguments)
        send(query)
        let got = receive(timeout: 2) { $0.address == reply }
        if let error = got.first(where: { $0.address == "/error" }) { return (nil, error.arguments.map { "\($0)" }.joined(separator: " ")) }
        return (got.first { $0.address == reply }, nil)
    }

    /// A press's error that says the message was wrong (its type, its arguments, its address),
    /// not that the state refused it (nothing loaded to play).
    static func saysTheMessageWasWrong(_ error: String) -> Bool {
        error.contains("expects") || error.contains("unknown") || error.contains("argument")
    }
}
