/// The web app's state object: an insertion-ordered map, because the order is part of the
/// JSON that seeds every phrase (defaults order first, then unknown preset keys in file order).
public struct KesshoState: Sendable, Equatable {
    public private(set) var keys: [String] = []
    private var values: [String: KesshoValue] = [:]

    public init() {}

    /// DEFAULT_STATE: every known key with its default, in the web's order.
    public static let defaults: KesshoState = {
        var s = KesshoState()
        for p in KesshoParameters.all { s[p.key] = p.defaultValue }
        return s
    }()

    public var count: Int { keys.count }

    /// Setting a new key appends it (as a JS object does); setting nil removes it.
    public subscript(key: String) -> KesshoValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public func number(_ key: String) -> Double? { values[key]?.number }
    public func bool(_ key: String) -> Bool? { values[key]?.bool }
    public func string(_ key: String) -> String? { values[key]?.string }

    /// Keys present that the parameter table does not describe (kept, hashed, otherwise ignored).
    public var unknownKeys: [String] { keys.filter { KesshoParameters.index[$0] == nil } }

    public var entries: [(key: String, value: KesshoValue)] { keys.map { ($0, values[$0]!) } }
}
