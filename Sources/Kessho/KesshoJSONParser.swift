import EntrainFiles

/// Strict JSON (RFC 8259) plus one tolerance: a trailing comma before `}` or `]`, which three of the
/// iOS presets contain. Each tolerated comma is reported as a warning with its position. Nesting
/// deeper than `InputLimits.jsonDepth` is an error (the parser recurses once per level).
public struct KesshoJSONParser {
    private let bytes: [UInt8]
    private var pos = 0
    private var values = 0
    public private(set) var warnings: [String] = []

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public static func parse(_ bytes: [UInt8]) throws -> (value: KesshoJSONValue, warnings: [String]) {
        var p = KesshoJSONParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.pos = 3 }  // tolerate a UTF-8 BOM
        let v = try p.parseValue(depth: 0)
        p.skipWhitespace()
        if p.pos < bytes.count { throw p.error("unexpected data after the top-level value") }
        return (v, p.warnings)
    }

    private mutating func parseValue(depth: Int) throws -> KesshoJSONValue {
        skipWhitespace()
        guard pos < bytes.count else { throw error("unexpected end of input") }
        values += 1
        guard values <= InputLimits.jsonValues else { throw error(InputLimits.jsonValuesText) }
        switch bytes[pos] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < InputLimits.jsonDepth else { throw error("nested more than \(InputLimits.jsonDepth) deep") }
            return bytes[pos] == UInt8(ascii: "{") ? try parseObject(depth: depth + 1) : try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Character(UnicodeScalar(bytes[pos])))'")
        }
    }

    private mutating func parseObject(depth: Int) throws -> KesshoJSONValue {
        pos += 1
        var members: [KesshoJSONMember] = []
        skipWhitespace()
        if peek("}") { pos += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek("\"") else { throw error("expected a string key") }
            let keyOffset = pos
            let key = try parseString()
            skipWhitespace()
            guard peek(":") else { throw error("expected ':' after key \"\(key)\"") }
            pos += 1
            members.append(KesshoJSONMember(key: key, value: try parseValue(depth: depth), offset: keyOffset))
            skipWhitespace()
            if peek(",") {
                let comma = pos
                pos += 1
                skipWhitespace()
                if peek("}") { warnTrailingComma(at: comma); pos += 1; return .object(members) }
            } else if peek("}") {
                pos += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws -> KesshoJSONValue {
        pos += 1
        var items: [KesshoJSONValue] = []
        skipWhitespace()
        if peek("]") { pos += 1; return .array(items) }
        while true {
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            if peek(",") {
                let comma = pos
                pos += 1
                skipWhitespace()
                if peek("]") { warnTrailingComma(at: comma); pos += 1; return .array(items) }
            } else if peek("]") {
                pos += 1
                return .array(items)
            } else {
                throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseString() throws -> String {
        pos += 1
        var units: [UInt16] = []  // JSON escapes are UTF-16 code units; decode once at the end
        var raw: [UInt8] = []
        func flushRaw() { units += String(decoding: raw, as: UTF8.self).utf16; raw.removeAll() }
        while true {
            guard pos < bytes.count else { throw error("unterminated string") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { pos += 1; break }
            if b < 0x20 { throw error("control character in string") }
            if b != UInt8(ascii: "\\") { raw.append(b); pos += 1; continue }
            flushRaw()
            pos += 1
            guard pos < bytes.count else { throw error("unterminated escape") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): units.append(0x22)
            case UInt8(ascii: "\\"): units.append(0x5C)
            case UInt8(ascii: "/"): units.append(0x2F)
            case UInt8(ascii: "b"): units.append(0x08)
            case UInt8(ascii: "f"): units.append(0x0C)
            case UInt8(ascii: "n"): units.append(0x0A)
            case UInt8(ascii: "r"): units.append(0x0D)
            case UInt8(ascii: "t"): units.append(0x09)
            case UInt8(ascii: "u"):
                guard pos + 4 <= bytes.count, let v = UInt16(String(decoding: bytes[pos..<pos + 4], as: UTF8.self), radix: 16)
                else { throw error("bad \\u escape") }
                units.append(v)
                pos += 4
            default:
                pos -= 1
                throw error("bad escape character")
            }
        }
        flushRaw()
        return String(decoding: units, as: UTF16.self)
    }

    private mutating func parseNumber() throws -> Double {
        let start = pos
        if peek("-") { pos += 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else { throw error("bad number") }
        if peek("0") { pos += 1 } else { while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 } }
        if peek(".") {
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw error("bad number: digit expected after '.'") }
            while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 }
        }
        if peek("e") || peek("E") {
            pos += 1
            if peek("+") || peek("-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw error("bad number: exponent digits expected") }
            while pos < bytes.count && isDigit(bytes[pos]) { pos += 1 }
        }
        // Swift's Double(String) rounds correctly, as JS does; overflow gives ±infinity like JS.
        return Double(String(decoding: bytes[start..<pos], as: UTF8.self))!
    }

    private mutating func expectWord(_ word: String) throws {
        let w = Array(word.utf8)
        guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else {
            throw error("invalid literal")
        }
        pos += w.count
    }

    private mutating func skipWhitespace() {
        while pos < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[pos]) { pos += 1 }
    }

    private func peek(_ c: Unicode.Scalar) -> Bool { pos < bytes.count && bytes[pos] == UInt8(ascii: c) }
    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func warnTrailingComma(at offset: Int) {
        let (line, column) = location(offset)
        warnings.append("trailing comma at line \(line), column \(column) ignored")
    }

    private func location(_ offset: Int) -> (Int, Int) {
        let p = Self.positions(of: [offset], in: bytes)[offset]!
        return (p.line, p.column)
    }

    /// 1-based line and column (in characters) of each UTF-8 offset, in one pass over the text.
    public static func positions(of offsets: [Int], in bytes: [UInt8]) -> [Int: (line: Int, column: Int)] {
        var out: [Int: (line: Int, column: Int)] = [:]
        var line = 1, column = 1, at = 0
        for offset in offsets.sorted() {
            let end = min(offset, bytes.count)
            while at < end {
                let b = bytes[at]
                if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
                at += 1
            }
            out[offset] = (line, column)
        }
        return out
    }

    private func error(_ message: String) -> KesshoJSONError {
        let (line, column) = location(pos)
        return KesshoJSONError(message: message, offset: pos, line: line, column: column)
    }
}
