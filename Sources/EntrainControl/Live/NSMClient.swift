import Foundation
import Logging

/// The client side of the Non/New Session Manager protocol. Every message to the manager goes
/// from the one socket the announce went from (the manager knows its clients by their return
/// address). The run loop polls it: nothing here runs on a thread of its own.
public final class NSMClient {
    /// What `/nsm/client/open` gives: where to keep our state, the session's name for us, and
    /// the client id (our JACK client name).
    public struct Open: Equatable, Sendable {
        public let path: String
        public let displayName: String
        public let clientID: String
    }

    /// What the manager asked for since the last poll.
    public enum Request: Equatable, Sendable { case save }

    public enum Failure: Error, CustomStringConvertible {
        case refused(code: Int32, message: String)
        case stopped
        public var description: String {
            switch self {
            case .refused(let code, let message): "the session manager refused us (\(code)): \(message)"
            case .stopped: "stopped before the session manager opened a session"
            }
        }
    }

    /// `dirty`: we say when there are unsaved changes; `message`: we send status messages.
    /// (No `switch`: a new client id means a new JACK client, which takes a restart here.)
    public static let capabilities = ":dirty:message:"
    static let apiMajor: Int32 = 1, apiMinor: Int32 = 2
    /// The protocol's ERR_GENERAL, ERR_NOT_NOW and ERR_BAD_PROJECT.
    public static let errorGeneral: Int32 = -1
    static let errorNotNow: Int32 = -8
    public static let errorBadProject: Int32 = -9

    public let manager: SocketAddress
    let socket: OSCClient
    let logger: Logger
    /// What we last told the manager (nil: nothing yet).
    private var toldDirty: Bool?

    /// The manager named by NSM_URL (`osc.udp://host:port/`), or nil when it is not set. An
    /// unusable URL is logged and the client runs without session management.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                       logger: Logger) -> NSMClient? {
        guard let url = environment["NSM_URL"], !url.isEmpty else { return nil }
        guard let manager = address(of: url) else {
            logger.warning("NSM_URL '\(url)' is not osc.udp://host:port/; running without session management")
            return nil
        }
        do {
            return try NSMClient(manager: manager, logger: logger)
        } catch {
            logger.warning("cannot reach the session manager at \(url) (\(error)); running without session management")
            return nil
        }
    }

    init(manager: SocketAddress, logger: Logger) throws {
        self.manager = manager
        self.logger = logger
        // Orders (save, open) are taken from the manager alone: any other local program could send them.
        socket = try OSCClient(host: Self.dotted(manager.ip), port: Int(manager.port), onlyFromTarget: true)
    }

    /// `osc.udp://host:port/` → an IPv4 address (host names resolved).
    static func address(of url: String) -> SocketAddress? {
        guard url.hasPrefix("osc.udp://") else { return nil }
        let rest = url.dropFirst("osc.udp://".count).split(separator: "/", omittingEmptySubsequences: false)[0]
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]) else { return nil }
        let host = String(rest[..<colon])
        if let direct = SocketAddress(host: host, port: port) { return direct }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(found) }
        guard let raw = first.pointee.ai_addr else { return nil }
        let ip = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
        return SocketAddress(ip: ip, port: UInt16(clamping: port))
    }

    static func dotted(_ ip: UInt32) -> String { "\(ip >> 24).\(ip >> 16 & 255).\(ip >> 8 & 255).\(ip & 255)" }

    /// Say who we are; the manager answers, then opens a session for us.
    public func announce(name: String, executable: String) {
        socket.send(OSCMessage("/nsm/server/announce", [.string(name), .string(Self.capabilities), .string(executable),
                                                        .int32(Self.apiMajor), .int32(Self.apiMinor), .int32(getpid())]))
    }

    /// Wait for `/nsm/client/open` (JACK is not touched before it); `stop` is asked between reads.
    public func waitForOpen(stop: () -> Bool) throws -> Open {
        while !stop() {
            for message in socket.drain(waitMilliseconds: 100) {
                switch (message.address, message.arguments) {
                case ("/error", let arguments) where arguments.first == .string("/nsm/server/announce"):
                    if arguments.count >= 3, case .int32(let code) = arguments[1], case .string(let text) = arguments[2] {
                        throw Failure.refused(code: code, message: text)
                    }
                    throw Failure.refused(code: -1, message: "\(arguments)")
                case ("/reply", let arguments) where arguments.first == .string("/nsm/server/announce"):
                    if arguments.count >= 3, case .string(let text) = arguments[1], case .string(let manager) = arguments[2] {
                        logger.info("under session management by \(manager): \(text)")
                    }
                case ("/nsm/client/open", let arguments):
                    if arguments.count >= 3, case .string(let path) = arguments[0], case .string(let display) = arguments[1],
                       case .string(let id) = arguments[2] {
                        return Open(path: path, displayName: display, clientID: id)
                    }
                    logger.warning("ignoring a malformed /nsm/client/open: \(arguments)")
                default: break
                }
            }
        }
        throw Failure.stopped
    }

    /// Requests that arrived since the last poll (a second open is refused: no `switch`).
    public func poll() -> [Request] {
        var requests: [Request] = []
        for message in socket.drain() {
            switch message.address {
            case "/nsm/client/save": requests.append(.save)
            case "/nsm/client/open":
                reply(error: Self.errorNotNow, to: "/nsm/client/open", "entrain opens one session per run (no switch)")
            default: break  // session_is_loaded, GUI show/hide: nothing to do
            }
        }
        return requests
    }

    public func replied(to path: String, _ text: String) { socket.send(OSCMessage("/reply", [.string(path), .string(text)])) }

    public func reply(error code: Int32, to path: String, _ text: String) {
        socket.send(OSCMessage("/error", [.string(path), .int32(code), .string(text)]))
    }

    /// Tell the manager whether there are unsaved changes (only when that changes).
    public func setDirty(_ dirty: Bool) {
        guard toldDirty != dirty else { return }
        toldDirty = dirty
        socket.send(OSCMessage(dirty ? "/nsm/client/is_dirty" : "/nsm/client/is_clean"))
    }

    /// A status line in the manager's window (priority 0…3).
    public func message(_ text: String, priority: Int32 = 1) {
        socket.send(OSCMessage("/nsm/client/message", [.int32(priority), .string(text)]))
    }
}
