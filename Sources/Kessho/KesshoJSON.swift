/// A JSON value that keeps object members in file order (Foundation's parser does not, and the order
/// of state keys is part of the phrase seed).
public indirect enum KesshoJSONValue: Sendable, Equatable {
    case object([KesshoJSONMember])
    case array([KesshoJSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// Member lookup with JS semantics for duplicate keys: the last value wins.
    public subscript(key: String) -> KesshoJSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }
}

public struct KesshoJSONMember: Sendable, Equatable {
    public var key: String
    public var value: KesshoJSONValue
    /// Where the key starts in the file (UTF-8 offset), for positioned warnings; not part of equality.
    public var offset: Int?

    public init(key: String, value: KesshoJSONValue, offset: Int? = nil) {
        self.key = key
        self.value = value
        self.offset = offset
    }

    public static func == (a: Self, b: Self) -> Bool { a.key == b.key && a.value == b.value }
}

/// Malformed JSON, with where it went wrong (1-based line and column, 0-based UTF-8 offset).
public struct KesshoJSONError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public let line: Int
    public let column: Int
    public var description: String { "JSON error at line \(line), column \(column): \(message)" }
}
