import EntrainAddressSpace
import EntrainControl
import Foundation
import Logging
import Synchronization

/// The discovery server: OSCQuery over HTTP (the namespace as JSON, attribute queries,
/// HOST_INFO), its WebSocket on the same port (LISTEN/IGNORE, OSC both ways, PATH_ADDED and
/// PATH_REMOVED), and the browser control page under /ui/. It binds like the OSC server and
/// refuses whom the OSC allowlist refuses; every request is judged before it is answered
/// (limits, head deadline and size, Host and Origin: `ServerConnection`). HTTP/1.1 and
/// WebSocket (RFC 6455) are our own, on one thread of its own (`ServerLoop`). OSC arriving over
/// a WebSocket goes through the OSC server's own thread (BridgedPeers), so every rule of OSC
/// holds for it.
public final class DiscoveryServer: Sendable {
    public struct Configuration: Sendable {
        /// An IPv4 address, or a name that resolves to one.
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
    private let loop = Shared<ServerLoop?>(nil)
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
        let listener: ListeningSocket
        do {
            listener = try ListeningSocket(bind: configuration.bind, port: configuration.port)
        } catch {
            throw DiscoveryError("cannot serve OSCQuery on \(configuration.bind):\(configuration.port): \(error)")
        }
        let limits = ConnectionLimits(configuration.limits)
        let rules = ConnectionRules(limits: limits, policy: policy, allows: allows, log: refusals, port: listener.port)
        let running: ServerLoop
        do {
            running = try ServerLoop(listener: listener, rules: rules, server: self)
        } catch {
            listener.close()
            throw error
        }
        guard running.start() else {
            listener.close()
            throw DiscoveryError("cannot serve OSCQuery: no thread could be started for it")
        }
        connections.withLock { $0 = limits }
        boundPort.withLock { $0 = listener.port }
        loop.withLock { $0 = running }
        if limits.total < configuration.limits.total {
            logger.notice("OSCQuery: at most \(limits.total) connections (the open-file limit keeps \(configuration.limits.reservedFileDescriptors) descriptors for files)")
        }
    }

    /// Closes every connection (one that sent half a request too) and stops listening. Never
    /// waits on a client: exit must not depend on what a client does.
    public func stop() {
        loop.withLock { l -> ServerLoop? in defer { l = nil }; return l }?.stop()
    }

    /// Connections open now (for tests and the log).
    var openConnections: Int { connections.withLock { $0 }?.openCount ?? 0 }

    // MARK: HTTP

    /// The answer to a GET (or HEAD) that passed every check.
    func respond(to request: RequestHead) -> HTTPResponse {
        let path = request.path
        if path == "/ui" { return HTTPResponse("301 Moved Permanently", headers: [("Location", "/ui/")]) }
        if path.hasPrefix("/ui/") {
            let name = path == "/ui/" ? "index.html" : String(path.dropFirst(4))
            guard let file = ControlPage.files[name] else { return .text("404 Not Found", "no such file") }
            // Never inside another site's frame: framed, the page's WebSocket has our own origin,
            // and a page laid over it could steer clicks onto Resume, Play or Load.
            return HTTPResponse("200 OK", headers: [("Content-Type", file.type), ("Cache-Control", "no-store"),
                                                    ("Content-Security-Policy", "frame-ancestors 'none'"), ("X-Frame-Options", "DENY")],
                                body: file.bytes)
        }
        let query = request.query
        if query == "HOST_INFO" { return .json(OSCQueryTree.encode(HostInfo.json(name: configuration.name, oscPort: configuration.oscPort))) }
        let tree = trees.tree(space: space)
        if query.isEmpty {
            guard let node = tree.json(at: path) else { return .text("404 Not Found", "no such node") }
            return .json(OSCQueryTree.encode(node))
        }
        switch tree.attribute(query, at: path) {
        case .value(let object): return .json(OSCQueryTree.encode(object))
        case .notApplicable: return HTTPResponse("204 No Content")
        case .unknown: return .text("400 Bad Request", "unknown attribute \(query)")
        case .noNode: return .text("404 Not Found", "no such node")
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
