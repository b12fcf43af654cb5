import EntrainControl
import Foundation
import HummingbirdWebSocket
import NIOCore

/// One WebSocket connection: OSC in binary frames goes to the OSC server as from any peer;
/// what the OSC server sends this peer (replies, and feedback once it LISTENs) comes back in
/// binary frames, filtered to what it listens to; PATH_ADDED and PATH_REMOVED arrive as text
/// when families come or go.
struct WebSocketSession {
    let server: DiscoveryServer
    let peer: EntrainControl.SocketAddress

    enum Outgoing: Sendable {
        case osc([UInt8])
        case text(String)
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let listen = ListenSession()
        let (stream, continuation) = AsyncStream<Outgoing>.makeStream(bufferingPolicy: .bufferingNewest(Self.outgoingLimit))
        let id = server.openBridge(from: peer) { packet in
            if let passed = listen.filter(packet, now: Self.now()) { continuation.yield(.osc(passed)) }
        }
        server.log("OSCQuery WebSocket from \(peer)")
        defer {
            server.closeBridge(id)
            continuation.finish()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await item in stream {
                    switch item {
                    case .osc(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                    case .text(let text): try await outbound.write(.text(text))
                    }
                }
            }
            group.addTask { try await watchPaths(continuation) }
            for try await message in inbound.messages(maxSize: 65_536) {
                switch message {
                case .binary(let buffer):
                    let bytes = [UInt8](buffer: buffer)
                    listen.sent((try? OSCCodec.decode(bytes))?.map(\.message) ?? [], now: Self.now())
                    _ = server.forward(bytes, from: id)
                case .text(let text):
                    let (first, problem) = listen.command(text, resolve: server.resolve)
                    if let problem { continuation.yield(.text(Self.error(problem))) }
                    // Feedback starts with the first LISTEN: the OSC server's subscription,
                    // asked for as this peer, so it lasts as long as the connection.
                    if first { _ = server.forward(OSCCodec.encode(OSCMessage("/osc/subscribe")), from: id) }
                }
            }
            group.cancelAll()
        }
    }

    /// PATH_ADDED / PATH_REMOVED for each method that appears or goes with a family.
    private func watchPaths(_ continuation: AsyncStream<Outgoing>.Continuation) async throws {
        var generation = server.addressGeneration
        var paths = server.currentTree().paths
        while !Task.isCancelled {
            try await Task.sleep(nanoseconds: 200_000_000)
            let now = server.addressGeneration
            guard now != generation else { continue }
            generation = now
            let fresh = server.currentTree().paths
            for path in fresh.subtracting(paths).sorted() { continuation.yield(.text(Self.command("PATH_ADDED", path))) }
            for path in paths.subtracting(fresh).sorted() { continuation.yield(.text(Self.command("PATH_REMOVED", path))) }
            paths = fresh
        }
    }

    static func command(_ name: String, _ data: String) -> String {
        String(decoding: OSCQueryTree.encode(["COMMAND": name, "DATA": data]), as: UTF8.self)
    }

    static func error(_ text: String) -> String { command("ERROR", text) }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// Messages waiting for a client that reads slowly; the oldest are dropped beyond this.
    static let outgoingLimit = 1024
}
