/// The web app's full state description: 403 keys in DEFAULT_STATE order.
public enum KesshoParameters {
    public static let all: [KesshoParameter] = mix + effects + lead + drums + ocean

    /// Key → position in `all`.
    public static let index: [String: Int] = {
        var map: [String: Int] = [:]
        for (i, p) in all.enumerated() { map[p.key] = i }
        return map
    }()

    public static func parameter(_ key: String) -> KesshoParameter? {
        index[key].map { all[$0] }
    }
}
