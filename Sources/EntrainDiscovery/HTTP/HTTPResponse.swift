import Glibc

/// A response to write: status, header fields and body, with `Content-Length` and `Date` added
/// when it is written (and `Connection` when the connection closes after it).
struct HTTPResponse: Equatable, Sendable {
    /// `200 OK`, `404 Not Found`: the status line's code and reason.
    var status: String
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    init(_ status: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text answer (a refusal, a not-found): `text` is the reason, a newline ends it.
    static func text(_ status: String, _ text: String) -> HTTPResponse {
        HTTPResponse(status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((text + "\n").utf8))
    }

    static func json(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse("200 OK", headers: [("Content-Type", "application/json")], body: bytes)
    }

    var code: Int { Int(status.prefix(3)) ?? 0 }

    /// The bytes on the wire. `head`: the answer to a HEAD request (the same fields, no body);
    /// `close`: the connection closes after it (`Connection: close`); `keepAlive`: say so to an
    /// HTTP/1.0 client that asked to keep it.
    func serialized(head: Bool = false, close: Bool, keepAlive: Bool = false, date: String = HTTPDate.now()) -> [UInt8] {
        var text = "HTTP/1.1 \(status)\r\nDate: \(date)\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        // No length on a 1xx or 204 (RFC 9110 §8.6): they never have a body.
        if code >= 200 && code != 204 && code != 304 { text += "Content-Length: \(body.count)\r\n" }
        if close {
            text += "Connection: close\r\n"
        } else if keepAlive {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        return head || code == 204 ? Array(text.utf8) : Array(text.utf8) + body
    }

    static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }
}

/// The `Date` field's form (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`), in English
/// whatever the locale.
enum HTTPDate {
    static func now() -> String { format(time(nil)) }

    static func format(_ seconds: time_t) -> String {
        var clock = seconds
        var parts = tm()
        gmtime_r(&clock, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
