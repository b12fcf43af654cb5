import EntrainControl
import Foundation
import Synchronization

/// One WebSocket client's OSCQuery state: the paths it LISTENs to, and which of the packets
/// the OSC server sends it pass. Feedback is filtered to the listened paths; replies to what
/// the client itself sent (a query's answer, `/pong`, `/status`, `/error`) always pass.
final class ListenSession: Sendable {
    private struct State {
        var listened: Set<String> = []
        /// Addresses the client queried, until when their answer is let through.
        var queried: [String: Double] = [:]
        var subscribed = false
    }

    private let state = Mutex(State())
    static let alwaysPassing: Set<String> = ["/error", "/pong", "/status"]

    /// A text frame: `{"COMMAND": "LISTEN"|"IGNORE", "DATA": path}`. Returns true when this
    /// is the first LISTEN (the connection must then subscribe to feedback).
    func command(_ text: String) -> (firstListen: Bool, problem: String?) {
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let command = object["COMMAND"] as? String else {
            return (false, "expected {\"COMMAND\": \"LISTEN\" or \"IGNORE\", \"DATA\": path}")
        }
        guard let path = object["DATA"] as? String, path.hasPrefix("/") else { return (false, "\(command): DATA must be a path") }
        switch command {
        case "LISTEN":
            return state.withLock { s in
                s.listened.insert(path)
                defer { s.subscribed = true }
                return (!s.subscribed, nil)
            }
        case "IGNORE":
            state.withLock { _ = $0.listened.remove(path) }
            return (false, nil)
        default:
            return (false, "unknown COMMAND '\(command)' (LISTEN and IGNORE are supported)")
        }
    }

    /// The client sent `messages`: queries among them will have their answers let through.
    func sent(_ messages: [OSCMessage], now: Double) {
        let queries = messages.filter { $0.arguments.isEmpty }
        guard !queries.isEmpty else { return }
        state.withLock { s in for query in queries { s.queried[query.address] = now + 2 } }
    }

    /// The part of `packet` this client gets, re-encoded; nil when nothing of it passes.
    func filter(_ packet: [UInt8], now: Double) -> [UInt8]? {
        guard let timed = try? OSCCodec.decode(packet), !timed.isEmpty else { return nil }
        let kept = state.withLock { s in timed.filter { passes($0.message.address, s, now: now) } }
        if kept.count == timed.count { return packet }
        guard let first = kept.first else { return nil }
        if kept.count == 1, first.timetag == .immediately { return OSCCodec.encode(first.message) }
        return OSCCodec.encodeBundle(kept.map(\.message), timetag: first.timetag)
    }

    /// LISTEN is exact (as OSCQuery says); listening to a container (`/beat`) also passes what
    /// lies beneath it (`/beat/bpm`), our extension for pages that show whole families; `/norm`
    /// twins pass only when listened to by name.
    private func passes(_ address: String, _ s: State, now: Double) -> Bool {
        if Self.alwaysPassing.contains(address) { return true }
        if let until = s.queried[address], until > now { return true }
        if s.listened.contains(address) { return true }
        // A value's 0–1 twin only when asked for by name: listening to `/entrain` or to
        // `/entrain/carrier` does not double the traffic with `/entrain/carrier/norm`.
        if address.hasSuffix("/norm") { return false }
        var prefix = address
        while let slash = prefix.lastIndex(of: "/"), slash > prefix.startIndex {
            prefix = String(prefix[..<slash])
            if s.listened.contains(prefix) { return true }
        }
        return s.listened.contains("/")
    }
}
