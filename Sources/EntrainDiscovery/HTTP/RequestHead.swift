/// The head of a request (its request line and header fields), read from a connection's raw
/// bytes, so that what must be refused (an oversized head, a version we do not speak, a foreign
/// Host or Origin) is answered with a status line and a close, never silence. Every request on
/// a connection is read this way, the first and the kept-alive ones after it.
struct RequestHead: Equatable, Sendable {
    let method: String
    let target: String
    let version: String
    /// Header names in lower case, values trimmed, in order.
    let headers: [Header]

    struct Header: Equatable, Sendable {
        let name: String
        let value: String
    }

    enum Reading: Equatable {
        /// Not all of it yet.
        case incomplete
        case complete(RequestHead)
        /// An HTTP status line (`431 Request Header Fields Too Large`) and why.
        case refused(status: String, reason: String)
    }

    /// The request line may be this long, the whole head this long.
    static let requestLineLimit = 8 * 1024
    static let headLimit = 64 * 1024

    func values(_ name: String) -> [String] { headers.filter { $0.name == name }.map(\.value) }

    /// Whether a comma-separated header (`Connection: keep-alive, Upgrade`) names `token`, in any case.
    func lists(_ name: String, _ token: String) -> Bool {
        values(name).contains { $0.split(separator: ",").contains { $0.trimmingSpaces.lowercased() == token } }
    }

    /// The target's path, as sent (not percent-decoded); an absolute target (`http://host/p`) gives its path.
    var path: String {
        var rest = Substring(target)
        if let scheme = rest.range(of: "://"), !rest[..<scheme.lowerBound].contains("/") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        let end = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        return rest[..<end].isEmpty ? "/" : String(rest[..<end])
    }

    /// What follows `?` in the target, or "" when nothing does.
    var query: String {
        guard let mark = target.firstIndex(of: "?") else { return "" }
        let rest = target[target.index(after: mark)...]
        return String(rest[..<(rest.firstIndex(of: "#") ?? rest.endIndex)])
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var keepsAlive: Bool {
        version == "HTTP/1.1" ? !lists("connection", "close") : lists("connection", "keep-alive")
    }

    /// Reads a whole head (`bytes` ends with its empty line), or says what is wrong with it.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Reading {
        // Split as bytes: in a Swift String "\r\n" is one Character, not "\r" before "\n".
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
            .map { String(decoding: $0.last == 13 ? $0.dropLast() : $0, as: UTF8.self) }
            .drop { $0.isEmpty }  // blank lines before the request line are allowed (RFC 9112 §2.2)
        guard let requestLine = lines.first else { return .incomplete }
        if let refusal = check(requestLine: requestLine) { return refusal }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        var headers: [Header] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex, !line[..<colon].contains(" ") else {
                return .refused(status: "400 Bad Request", reason: "malformed header line")
            }
            headers.append(Header(name: line[..<colon].lowercased(), value: line[line.index(after: colon)...].trimmingSpaces))
        }
        return .complete(RequestHead(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers))
    }

    /// What is wrong with a request line, or nil.
    static func check<S: StringProtocol>(requestLine: S) -> Reading? {
        guard requestLine.utf8.count <= requestLineLimit else { return .refused(status: "414 URI Too Long", reason: "request line over \(requestLineLimit) bytes") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .refused(status: "400 Bad Request", reason: "malformed request line")
        }
        let version = parts[2]
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") { return .refused(status: "505 HTTP Version Not Supported", reason: "\(version.prefix(20)) (HTTP/1.1 is spoken here)") }
            return .refused(status: "400 Bad Request", reason: "malformed request line")
        }
        return nil
    }
}

/// Gathers a connection's bytes until a request head is whole, looking at each byte once (a
/// head sent a byte at a time costs no more than one sent at once).
struct RequestHeadReader {
    private(set) var bytes: [UInt8] = []
    /// Once the head is whole: the bytes that came after it (the next request, or WebSocket frames).
    var rest: ArraySlice<UInt8> { bytes[min(scanned, bytes.count)...] }
    private var scanned = 0
    private var lineStart = 0
    private var sawRequestLine = false

    /// Takes what arrived; the head once whole, a refusal, or `.incomplete`.
    mutating func feed(_ chunk: some Collection<UInt8>) -> RequestHead.Reading {
        bytes.append(contentsOf: chunk)
        while scanned < bytes.count {
            defer { scanned += 1 }
            guard bytes[scanned] == 10 else { continue }
            var lineEnd = scanned
            if lineEnd > lineStart, bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
            let empty = lineEnd == lineStart
            if !sawRequestLine && !empty {
                sawRequestLine = true
                if let refusal = RequestHead.check(requestLine: String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)) { return refusal }
            } else if sawRequestLine && empty {
                guard scanned < RequestHead.headLimit else { break }
                return RequestHead.parse(bytes[...scanned])
            }
            lineStart = scanned + 1
        }
        if !sawRequestLine && bytes.count - lineStart > RequestHead.requestLineLimit {
            return .refused(status: "414 URI Too Long", reason: "request line over \(RequestHead.requestLineLimit) bytes")
        }
        if bytes.count > RequestHead.headLimit {
            return .refused(status: "431 Request Header Fields Too Large", reason: "request head over \(RequestHead.headLimit) bytes")
        }
        return .incomplete
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
