/// One value of the web app's state: every state entry is a JS number, boolean or string.
public enum KesshoValue: Sendable, Equatable, Hashable {
    case number(Double)
    case bool(Bool)
    case string(String)

    public var number: Double? { if case .number(let v) = self { return v }; return nil }
    public var bool: Bool? { if case .bool(let v) = self { return v }; return nil }
    public var string: String? { if case .string(let v) = self { return v }; return nil }
}
