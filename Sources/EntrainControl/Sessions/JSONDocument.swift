import EntrainFiles
import Foundation

/// A JSON value that remembers where it was written, so every problem in a file can be
/// reported as file:line:column. Objects keep their keys in file order (unknown keys survive).
public indirect enum JSONValue: Equatable, Sendable {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let x), .array(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }
}

/// A value and its position (1-based line and column of its first character).
public struct JSONNode: Equatable, Sendable {
    public let value: JSONValue
    public let line: Int
    public let column: Int

    public subscript(key: String) -> JSONNode? {
        if case .object(let members) = value { return members.last { $0.key == key }?.value }
        return nil
    }

    public var kindName: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true/false"
        case .null: "null"
        }
    }
}

public struct JSONSyntaxError: Error, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String
    public var description: String { "\(line):\(column): \(message)" }
}

/// A strict JSON (RFC 8259) parser with positions. Nesting deeper than `InputLimits.jsonDepth`
/// (the limit every JSON reader shares) is an error: it never recurses unboundedly.
public struct JSONDocument {
    public static func parse(_ text: String) throws -> JSONNode {
        var parser = JSONDocument(bytes: Array(text.utf8))
        parser.skipSpace()
        let node = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the end of the document") }
        return node
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var values = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var column: Int { index - lineStart + 1 }
    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(line: line, column: column, message: message) }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: index += 1; line += 1; lineStart = index
            case 0x20, 0x09, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws -> JSONNode {
        guard index < bytes.count else { throw error("the document ends where a value was expected") }
        values += 1
        guard values <= InputLimits.jsonValues else { throw error(InputLimits.jsonValuesText) }
        let (startLine, startColumn) = (line, column)
        func node(_ v: JSONValue) -> JSONNode { JSONNode(value: v, line: startLine, column: startColumn) }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < InputLimits.jsonDepth else { throw error("nested more than \(InputLimits.jsonDepth) deep") }
            return bytes[index] == UInt8(ascii: "{") ? try object(depth: depth, at: node) : try array(depth: depth, at: node)
        case UInt8(ascii: "\""): return node(.string(try string()))
        case UInt8(ascii: "t"): try literal("true"); return node(.bool(true))
        case UInt8(ascii: "f"): try literal("false"); return node(.bool(false))
        case UInt8(ascii: "n"): try literal("null"); return node(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return node(.number(try number()))
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func object(depth: Int, at node: (JSONValue) -> JSONNode) throws -> JSONNode {
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return node(.object(members)) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a \"key\" in quotes") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after \"\(key)\"") }
            index += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw error("the object is not closed: expected '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return node(.object(members)) }
            throw error("expected ',' or '}' in the object")
        }
    }

    private mutating func array(depth: Int, at node: (JSONValue) -> JSONNode) throws -> JSONNode {
        index += 1
        var items: [JSONNode] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return node(.array(items)) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("the array is not closed: expected ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return node(.array(items)) }
            throw error("expected ',' or ']' in the array")
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<(index + w.count)]) == w else { throw error("expected \(word)") }
        index += w.count
    }

    private mutating func number() throws -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard index < bytes.count, digits(bytes[index]) else { throw error("malformed number") }
        while index < bytes.count, digits(bytes[index]) { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, digits(bytes[index]) else { throw error("malformed number: digits must follow '.'") }
            while index < bytes.count, digits(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, digits(bytes[index]) else { throw error("malformed number exponent") }
            while index < bytes.count, digits(bytes[index]) { index += 1 }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw error("number out of range")
        }
        return value
    }

    private mutating func string() throws -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
                        throw error("malformed \\u escape")
                    }
                    index += 4
                    out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                default: throw error("unknown escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0..<0x20:
                throw error("control character in a string (newlines must be written \\n)")
            default:
                out.append(b)
                index += 1
            }
        }
        throw error("the string is not closed")
    }
}
