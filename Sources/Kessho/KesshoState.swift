/// The web app's state object: an insertion-ordered map, because the order is part of the
/// JSON that seeds every phrase (defaults order first, then unknown preset keys in file order).
public struct KesshoState: Sendable, Equatable {
    private var map = KesshoOrderedMap<KesshoValue>()

    public init() {}

    /// DEFAULT_STATE: every known key with its default, in the web's order.
    public static let defaults: KesshoState = {
        var s = KesshoState()
        for p in KesshoParameters.all { s[p.key] = p.defaultValue }
        return s
    }()

    public var keys: [String] { map.keys }
    public var count: Int { map.count }

    /// Setting a new key appends it (as a JS object does); setting nil removes it.
    public subscript(key: String) -> KesshoValue? {
        get { map[key] }
        set { map[key] = newValue }
    }

    public func number(_ key: String) -> Double? { map[key]?.number }
    public func bool(_ key: String) -> Bool? { map[key]?.bool }
    public func string(_ key: String) -> String? { map[key]?.string }

    /// Keys present that the parameter table does not describe (kept, hashed, otherwise ignored).
    public var unknownKeys: [String] { keys.filter { KesshoParameters.index[$0] == nil } }

    public var entries: [(key: String, value: KesshoValue)] { map.entries }
}
