import EntrainAddressSpace
import EntrainControl
import Foundation
import Hummingbird
import HummingbirdCore
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// The discovery server: OSCQuery over HTTP (the namespace as JSON, attribute queries,
/// HOST_INFO), its WebSocket on the same port (LISTEN/IGNORE, OSC both ways, PATH_ADDED and
/// PATH_REMOVED), and the browser control page under /ui/. It binds like the OSC server and
/// refuses whom the OSC allowlist refuses; every connection passes a `ConnectionGuard` first
/// (limits, head deadline and size, Host and Origin). OSC arriving over a WebSocket goes through the OSC
/// server's own thread (BridgedPeers), so every rule of OSC holds for it.
public final class DiscoveryServer: Sendable {
    public struct Configuration: Sendable {
        public var bind = "127.0.0.1"
        public var port = 8000
        /// The OSC server's UDP port, for HOST_INFO.
        public var oscPort = 8000
        public var name = "entrain"
        /// Connection limits (docs/input-limits.md); tests may lower them.
        var limits = ConnectionLimits.Numbers()
        public init() {}
    }

    private let configuration: Configuration
    private let space: AddressSpace
    private let bridge: BridgedPeers
    private let allows: @Sendable (EntrainControl.SocketAddress) -> Bool
    private let logger: Logger
    private let task = Shared<Task<Void, Never>?>(nil)
    private let boundPort = Shared<Int?>(nil)
    private let trees = TreeCache()
    private let policy: RequestPolicy
    private let refusals: RefusalLog
    private let connections = Shared<ConnectionLimits?>(nil)

    public init(configuration: Configuration, space: AddressSpace,
                bridge: BridgedPeers, allows: @escaping @Sendable (EntrainControl.SocketAddress) -> Bool, logger: Logger) {
        self.configuration = configuration
        self.space = space
        self.bridge = bridge
        self.allows = allows
        self.logger = logger
        policy = RequestPolicy(bind: configuration.bind)
        refusals = RefusalLog { [logger] in logger.notice("\($0)") }
    }

    /// The TCP port we listen on (the one asked for, or the one given for 0); nil before start.
    public var port: Int? { boundPort.withLock { $0 } }

    /// Starts listening; returns once the socket is bound, or throws why it could not be.
    public func start() throws {
        let ready = DispatchSemaphore(value: 0)
        let failure = Shared<Error?>(nil)
        let limits = ConnectionLimits(configuration.limits)
        connections.withLock { $0 = limits }
        let rules = ConnectionGuard.Rules(limits: limits, policy: policy, allows: allows, log: refusals)
        let upgrade: @Sendable (HTTPRequest, any Channel, Logger) throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> = {
            [self] request, channel, _ in
            // The connection's guard judged this head already; this is the second lock on the door.
            guard let peer = Self.peer(channel.remoteAddress), allows(peer),
                  policy.refusal(host: request.authority, origin: request.headerFields[.origin], port: channel.localAddress?.port ?? 0) == nil
            else { return .dontUpgrade }
            return .upgrade([:]) { inbound, outbound, _ in
                try await WebSocketSession(server: self, peer: peer).run(inbound: inbound, outbound: outbound)
            }
        }
        // Later requests on a kept-alive connection: the same head limit in NIO's decoder, and
        // an idle connection is closed.
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: FirstRequestHead.headLimit, maxHeaderListSize: FirstRequestHead.headLimit, maxHeaderFieldCount: 200)
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: Self.idleTimeout, httpDecoderConfiguration: decoder), ws: .init())
        let app = Application(
            router: makeRouter(),
            server: HTTPServerBuilder { responder in
                GuardedChildChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: channel, shouldUpgrade: upgrade), rules: rules)
            },
            configuration: .init(address: .hostname(configuration.bind, port: configuration.port), serverName: nil),
            onServerRunning: { [boundPort] channel in
                boundPort.withLock { $0 = channel.localAddress?.port }
                ready.signal()
            },
            logger: Logger(label: "entrain.discovery.http", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task.detached {
            do { try await app.run() } catch {
                failure.withLock { $0 = error }
                ready.signal()
            }
        }
        task.withLock { $0 = running }
        ready.wait()
        if let error = failure.withLock({ $0 }) {
            throw DiscoveryError("cannot serve OSCQuery on \(configuration.bind):\(configuration.port): \(error)")
        }
        if limits.total < configuration.limits.total {
            logger.notice("OSCQuery: at most \(limits.total) connections (the open-file limit keeps \(configuration.limits.reservedFileDescriptors) descriptors for files)")
        }
    }

    /// Closes every connection (one that sent half a request too) and stops listening. Never
    /// waits long: exit must not depend on what a client does.
    public func stop() {
        connections.withLock { $0 }?.closeAll()
        guard let running = task.withLock({ t -> Task<Void, Never>? in defer { t = nil }; return t }) else { return }
        running.cancel()
        let done = DispatchSemaphore(value: 0)
        Task.detached { _ = await running.result; done.signal() }
        if done.wait(timeout: .now() + Self.stopWait) == .timedOut {
            logger.notice("OSCQuery: the server had not finished stopping after \(Self.stopWait) s; going on without it")
        }
    }

    /// A kept-alive HTTP connection with no request for this long is closed.
    static let idleTimeout: TimeAmount = .seconds(30)
    static let stopWait: DispatchTimeInterval = .seconds(1)

    /// Connections open now (for tests and the log).
    var openConnections: Int { connections.withLock { $0 }?.openCount ?? 0 }

    // MARK: HTTP

    private func makeRouter() -> Router<PeerRequestContext> {
        let router = Router(context: PeerRequestContext.self)
        let answer: @Sendable (Request, PeerRequestContext) async throws -> Response = { [self] request, context in
            let who = context.remoteAddress.map { "\($0)" } ?? "a client"
            guard let peer = Self.peer(context.remoteAddress), allows(peer) else {
                refusals.refused("403 Forbidden", "OSCQuery: 403 Forbidden to \(who): not in --osc-allow")
                return Self.text(.forbidden, "not in --osc-allow\n")
            }
            // A kept-alive connection's later requests (its first passed the ConnectionGuard).
            if let reason = policy.refusal(host: request.head.authority, origin: request.headers[.origin], port: context.localPort) {
                refusals.refused("403 Forbidden", "OSCQuery: 403 Forbidden to \(who): \(reason)")
                return Self.text(.forbidden, reason + "\n")
            }
            return respond(to: request)
        }
        router.get("/", use: answer)
        router.get("**", use: answer)
        return router
    }

    private func respond(to request: Request) -> Response {
        let path = request.uri.path
        if path == "/ui" { return Response(status: .movedPermanently, headers: [.location: "/ui/"]) }
        if path.hasPrefix("/ui/") {
            let name = path == "/ui/" ? "index.html" : String(path.dropFirst(4))
            guard let file = ControlPage.files[name] else { return Self.text(.notFound, "no such file\n") }
            // Never inside another site's frame: framed, the page's WebSocket has our own origin,
            // and a page laid over it could steer clicks onto Resume, Play or Load.
            return Response(status: .ok, headers: [.contentType: file.type, .cacheControl: "no-store",
                                                   Self.framePolicy: "frame-ancestors 'none'", Self.frameOptions: "DENY"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
        let query = request.uri.query ?? ""
        if query == "HOST_INFO" { return Self.json(HostInfo.json(name: configuration.name, oscPort: configuration.oscPort)) }
        let tree = trees.tree(space: space)
        if query.isEmpty {
            guard let node = tree.json(at: path) else { return Self.text(.notFound, "no such node\n") }
            return Self.json(node)
        }
        switch tree.attribute(query, at: path) {
        case .value(let object): return Self.json(object)
        case .notApplicable: return Response(status: .noContent)
        case .unknown: return Self.text(.badRequest, "unknown attribute \(query)\n")
        case .noNode: return Self.text(.notFound, "no such node\n")
        }
    }

    func currentTree() -> OSCQueryTree { trees.tree(space: space) }

    /// A path's canonical form when it is in the tree (a container or a method), or is the
    /// `/norm` twin of a method; nil when it does not exist.
    func resolve(_ path: String) -> String? {
        let tree = currentTree()
        let canonical = OSCQueryTree.normalized(path)
        if tree.node(at: canonical) != nil { return canonical }
        if canonical.hasSuffix("/norm"), tree.node(at: String(canonical.dropLast(5)))?.method != nil { return canonical }
        return nil
    }
    var addressGeneration: Int { space.generation }

    /// A WebSocket client's OSC, into the OSC server; what it sends back, out through `deliver`.
    func openBridge(from peer: EntrainControl.SocketAddress, deliver: @escaping @Sendable ([UInt8]) -> Void) -> Int {
        bridge.open(from: peer, deliver: deliver)
    }

    func closeBridge(_ id: Int) { bridge.close(id) }
    func forward(_ packet: [UInt8], from id: Int) -> Bool { bridge.received(packet, from: id) }
    func log(_ text: String) { logger.info("\(text)") }

    private static func json(_ object: [String: Any]) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: OSCQueryTree.encode(object))))
    }

    static let framePolicy = HTTPField.Name("Content-Security-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!

    private static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func peer(_ address: NIOCore.SocketAddress?) -> EntrainControl.SocketAddress? {
        guard let address, let ip = address.ipAddress, let port = address.port else { return nil }
        let v4 = ip.hasPrefix("::ffff:") ? String(ip.dropFirst(7)) : ip
        return EntrainControl.SocketAddress(host: v4, port: port)
    }
}

/// A value shared between threads behind a lock (a class, so closures can hold it).
final class Shared<Value>: @unchecked Sendable {  // every access goes through the mutex
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

public struct DiscoveryError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A request context that remembers who connected (for the allowlist) and where.
struct PeerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: NIOCore.SocketAddress?
    /// The port the request arrived on, for the Host check.
    let localPort: Int

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        localPort = source.channel.localAddress?.port ?? 0
    }
}

/// The namespace, rebuilt only when a family comes or goes.
final class TreeCache: Sendable {
    private let cached = Mutex<(generation: Int, tree: OSCQueryTree)?>(nil)

    func tree(space: AddressSpace) -> OSCQueryTree {
        let generation = space.generation
        if let hit = cached.withLock({ $0 }), hit.generation == generation { return hit.tree }
        let tree = OSCQueryTree(space: space)
        cached.withLock { $0 = (generation, tree) }
        return tree
    }
}
