import EntrainFiles
import Foundation

/// A JSON object written key by key in a fixed order with fixed decimals: one line of a
/// recording or of `hrv replay --jsonl`.
struct JSONLine {
    private var parts: [String] = []

    mutating func add(_ key: String, _ raw: String) { parts.append("\(Self.quoted(key)):\(raw)") }
    mutating func number(_ key: String, _ value: Double?, _ decimals: Int) { add(key, Self.number(value, decimals)) }
    mutating func text(_ key: String, _ value: String?) { add(key, value.map(Self.quoted) ?? "null") }
    mutating func bool(_ key: String, _ value: Bool) { add(key, value ? "true" : "false") }
    mutating func numbers(_ key: String, _ values: [Double], _ decimals: Int) {
        add(key, "[" + values.map { Self.number($0, decimals) }.joined(separator: ",") + "]")
    }
    mutating func object(_ key: String, _ inner: JSONLine) { add(key, inner.text) }

    var text: String { "{" + parts.joined(separator: ",") + "}" }

    static func number(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        if decimals == 0 { return String(Int(value.rounded())) }
        var s = String(format: "%.\(decimals)f", value)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    static func quoted(_ s: String) -> String { JSONString.quoted(s) }
}
