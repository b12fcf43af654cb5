import EntrainControl
import Foundation

/// One WebSocket connection's OSCQuery side: OSC in binary messages goes to the OSC server as
/// from any peer; what the OSC server sends this peer (replies, and feedback once it LISTENs)
/// goes back in binary messages, filtered to what it listens to; PATH_ADDED and PATH_REMOVED
/// go out as text when families come or go. Called on the server's loop thread, but for
/// `send`, which the OSC server's thread calls too.
final class WebSocketSession {
    enum Outgoing: Sendable {
        case osc([UInt8])
        case text(String)
    }

    private let server: DiscoveryServer
    private let listen = ListenSession()
    private let bridge: Int
    private let send: @Sendable (Outgoing) -> Void
    /// The namespace's paths as this client last heard them, and their generation.
    private var paths: Set<String>
    private var generation: Int

    /// `send` queues a message for the client, from any thread.
    init(server: DiscoveryServer, peer: EntrainControl.SocketAddress, send: @escaping @Sendable (Outgoing) -> Void) {
        self.server = server
        self.send = send
        generation = server.addressGeneration
        paths = server.currentTree().paths
        bridge = server.openBridge(from: peer) { [listen] packet in
            if let passed = listen.filter(packet, now: Self.now()) { send(.osc(passed)) }
        }
        server.log("OSCQuery WebSocket from \(peer)")
    }

    /// A whole message from the client, in the order they came.
    func received(_ event: WebSocketEvent) {
        switch event {
        case .binary(let bytes):
            listen.sent((try? OSCCodec.decode(bytes))?.map(\.message) ?? [], now: Self.now())
            _ = server.forward(bytes, from: bridge)
        case .text(let text):
            let (first, problem) = listen.command(text, resolve: server.resolve)
            if let problem { send(.text(Self.error(problem))) }
            // Feedback starts with the first LISTEN: the OSC server's subscription, asked for as
            // this peer, so it lasts as long as the connection.
            if first { _ = server.forward(OSCCodec.encode(OSCMessage("/osc/subscribe")), from: bridge) }
        default:
            break
        }
    }

    /// PATH_ADDED / PATH_REMOVED for each method that appeared or went with a family since the
    /// last look (the loop looks every `pathWatch` seconds).
    func lookAtPaths() {
        let now = server.addressGeneration
        guard now != generation else { return }
        generation = now
        let fresh = server.currentTree().paths
        for path in fresh.subtracting(paths).sorted() { send(.text(Self.command("PATH_ADDED", path))) }
        for path in paths.subtracting(fresh).sorted() { send(.text(Self.command("PATH_REMOVED", path))) }
        paths = fresh
    }

    /// The connection is closing: the OSC server forgets this peer (once; again is harmless).
    func close() { server.closeBridge(bridge) }

    static let pathWatch = 0.2

    static func command(_ name: String, _ data: String) -> String {
        String(decoding: OSCQueryTree.encode(["COMMAND": name, "DATA": data]), as: UTF8.self)
    }

    static func error(_ text: String) -> String { command("ERROR", text) }

    static func now() -> Double { Date().timeIntervalSince1970 }
}
