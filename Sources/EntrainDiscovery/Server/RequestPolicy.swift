import Foundation
import Glibc

/// Which requests the discovery server answers, from their `Host` and `Origin` headers.
///
/// - `Host` must name this server: its bound address, `localhost`, the machine's own name (or
///   NAME.local), or any IP literal, at the bound port. A web page that got a name of its own
///   to resolve to 127.0.0.1 (DNS rebinding) sends that name, and is refused; an IP literal
///   cannot be rebound.
/// - `Origin`, when present, must be the page's own origin: `http://` and the same host and
///   port as `Host`. Browsers always send it with a WebSocket (and with cross-site requests), so
///   another site's page, a `file:` or `data:` page (Origin `null`) is refused; tools that are
///   not browsers (websocat, python-oscquery) send none and are let in.
struct RequestPolicy: Sendable {
    /// Names accepted besides IP literals, lower case.
    let names: Set<String>

    init(bind: String, machineName: String = Self.machineName()) {
        var names: Set<String> = ["localhost"]
        let bound = bind.lowercased()
        if !bound.isEmpty { names.insert(bound) }
        let machine = machineName.lowercased()
        if !machine.isEmpty {
            names.insert(machine)
            names.insert(machine.hasSuffix(".local") ? machine : machine + ".local")
        }
        self.names = names
    }

    /// Why a request with these headers, arriving on `port`, is refused, or nil when it may go on.
    func refusal(host: String?, origin: String?, port: Int) -> String? {
        guard let host, !host.isEmpty else { return "no Host header" }
        guard let authority = Authority(host, defaultPort: 80) else { return "malformed Host '\(host.prefix(100))'" }
        guard authority.port == port else { return "Host '\(host.prefix(100))' is not this server's port \(port)" }
        guard authority.isIPLiteral || names.contains(authority.name) else {
            return "Host '\(host.prefix(100))' is not this machine (a DNS-rebinding page?)"
        }
        guard let origin else { return nil }
        guard origin.lowercased().hasPrefix("http://"),
              let from = Authority(String(origin.dropFirst(7)), defaultPort: 80),
              from.name == authority.name, from.port == authority.port else {
            return "Origin '\(origin.prefix(100))' is another site's page"
        }
        return nil
    }

    static func machineName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(cString: buffer)
    }
}

/// `name[:port]` or `[v6]:port`, as in Host and in an origin after its scheme.
struct Authority: Equatable {
    let name: String
    let port: Int
    let isIPLiteral: Bool

    init?(_ text: String, defaultPort: Int) {
        var rest = Substring(text.lowercased())
        if rest.hasSuffix("/") { rest = rest.dropLast() }  // an origin never has a path; tolerate the slash
        let portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let literal = String(rest[rest.index(after: rest.startIndex)..<close])
            guard Self.isIPv6(literal) else { return nil }
            name = "[" + literal + "]"
            isIPLiteral = true
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let first = parts.first, !first.isEmpty else { return nil }
            var host = String(first)
            if host.hasSuffix(".") { host.removeLast() }  // `localhost.` is `localhost`
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else { return nil }
            name = host
            isIPLiteral = Self.isIPv4(host)
            portText = parts.count == 2 ? parts[1] : nil
        }
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), let value = Int(portText), (1...65_535).contains(value) else { return nil }
            port = value
        } else {
            port = defaultPort
        }
    }

    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}
