import EntrainControl
import Foundation
import Synchronization

/// One WebSocket client's OSCQuery state: the paths it LISTENs to, and which of the packets
/// the OSC server sends it pass. Feedback is filtered to the listened paths; replies to what
/// the client itself sent (a query's answer, `/pong`, `/status`, `/error`) always pass.
/// What it keeps is bounded whatever the client sends: only paths that exist may be listened
/// to, at most `listenLimit` of them, and at most `queryLimit` queries are remembered.
final class ListenSession: Sendable {
    private struct State {
        var listened: Set<String> = []
        /// Addresses the client queried: until when their answer is let through, and the
        /// query's place in order (of queries due at the same time, the oldest goes first).
        var queried: [String: (until: Double, order: Int)] = [:]
        var queries = 0
        var subscribed = false
    }

    private let state = Mutex(State())
    static let alwaysPassing: Set<String> = ["/error", "/pong", "/status"]
    /// Paths one connection may listen to at once (the whole tree, with its `/norm` twins, is
    /// about 1,100; containers count as one).
    static let listenLimit = 4096
    /// Queries whose answers are awaited at once; the oldest is forgotten beyond this.
    static let queryLimit = 256
    /// No address is longer; a longer query is answered with /error, which passes anyway.
    static let longestAddress = 512
    /// How long a query's answer is awaited, in seconds.
    static let queryWait = 2.0

    /// A text frame: `{"COMMAND": "LISTEN"|"IGNORE", "DATA": path}`. `resolve` gives a path's
    /// canonical form when it exists (nil when not). Returns true when this is the first
    /// LISTEN (the connection must then subscribe to feedback).
    func command(_ text: String, resolve: (String) -> String?) -> (firstListen: Bool, problem: String?) {
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let command = object["COMMAND"] as? String else {
            return (false, "expected {\"COMMAND\": \"LISTEN\" or \"IGNORE\", \"DATA\": path}")
        }
        let shown = Self.shown(command)
        guard let given = object["DATA"] as? String, given.hasPrefix("/") else { return (false, "\(shown): DATA must be a path") }
        switch command {
        case "LISTEN":
            guard let path = resolve(given) else { return (false, "LISTEN: no such path \(Self.shown(given))") }
            return state.withLock { s in
                guard s.listened.count < Self.listenLimit || s.listened.contains(path) else {
                    return (false, "LISTEN: at most \(Self.listenLimit) paths per connection (IGNORE some, or LISTEN to a container)")
                }
                s.listened.insert(path)
                defer { s.subscribed = true }
                return (!s.subscribed, nil)
            }
        case "IGNORE":
            let path = resolve(given) ?? given
            state.withLock { _ = $0.listened.remove(path) }
            return (false, nil)
        default:
            return (false, "unknown COMMAND '\(shown)' (LISTEN and IGNORE are supported)")
        }
    }

    /// A client's text in a reply, cut short.
    static func shown(_ text: String) -> String { text.count > 100 ? text.prefix(100) + "…" : text }

    /// The client sent `messages`: queries among them will have their answers let through.
    /// Answers that are due are forgotten first; beyond `queryLimit` the soonest due goes.
    func sent(_ messages: [OSCMessage], now: Double) {
        let queries = messages.filter { $0.arguments.isEmpty && $0.address.utf8.count <= Self.longestAddress }
        guard !queries.isEmpty else { return }
        state.withLock { s in
            for query in queries {
                if s.queried.count >= Self.queryLimit, s.queried[query.address] == nil {
                    s.queried = s.queried.filter { $0.value.until > now }
                    if s.queried.count >= Self.queryLimit,
                       let soonest = s.queried.min(by: { ($0.value.until, $0.value.order) < ($1.value.until, $1.value.order) }) {
                        s.queried[soonest.key] = nil
                    }
                }
                s.queries += 1
                s.queried[query.address] = (now + Self.queryWait, s.queries)
            }
        }
    }

    /// Listened paths and awaited queries held now (for tests).
    var held: (listened: Int, queried: Int) { state.withLock { ($0.listened.count, $0.queried.count) } }

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
        if let query = s.queried[address], query.until > now { return true }
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
