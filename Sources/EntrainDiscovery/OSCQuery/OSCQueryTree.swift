import EntrainAddressSpace
import Foundation

/// The OSCQuery namespace: every value of every family, the commands and what entrain sends,
/// as a tree of containers and methods, answered as JSON. Rebuilt when the address space's
/// generation changes (a family added or removed); values are read at each request.
struct OSCQueryTree {
    final class Node {
        var method: OSCQueryMethod?
        var children: [String: Node] = [:]
    }

    let root = Node()
    /// Every method's path, for PATH_ADDED / PATH_REMOVED.
    private(set) var paths: Set<String> = []

    init(space: AddressSpace) {
        let families = space.families
        for family in families {
            for descriptor in family.descriptors { insert(OSCQueryMethod(descriptor, family: family)) }
        }
        // Values first: a command or a published address of the same path does not replace them.
        for family in families {
            for command in family.commands where !paths.contains(command.address) { insert(OSCQueryMethod(command, space: space)) }
            for item in family.published {
                for (path, type) in item.addresses where !paths.contains(path) { insert(OSCQueryMethod(published: path, type: type, item.arguments)) }
            }
        }
    }

    private mutating func insert(_ method: OSCQueryMethod) {
        var node = root
        for segment in method.path.split(separator: "/") {
            let next = node.children[String(segment)] ?? Node()
            node.children[String(segment)] = next
            node = next
        }
        node.method = method
        paths.insert(method.path)
    }

    func node(at path: String) -> Node? {
        var node = root
        for segment in path.split(separator: "/") {
            guard let next = node.children[String(segment)] else { return nil }
            node = next
        }
        return node
    }

    static let attributes: Set<String> = ["FULL_PATH", "CONTENTS", "TYPE", "ACCESS", "VALUE", "RANGE", "DESCRIPTION", "UNIT", "CLIPMODE"]

    /// The node at `path` with its whole subtree.
    func json(at path: String) -> [String: Any]? {
        node(at: path).map { Self.json($0, path: Self.normalized(path)) }
    }

    enum AttributeAnswer {
        case value([String: Any])
        /// The node has no such attribute (204).
        case notApplicable
        /// Not an attribute we know (400).
        case unknown
        /// No such node (404).
        case noNode
    }

    /// `/path?ATTRIBUTE`.
    func attribute(_ name: String, at path: String) -> AttributeAnswer {
        guard Self.attributes.contains(name) else { return .unknown }
        guard let node = node(at: path) else { return .noNode }
        guard let value = Self.json(node, path: Self.normalized(path))[name] else { return .notApplicable }
        return .value([name: value])
    }

    static func normalized(_ path: String) -> String {
        let trimmed = path.split(separator: "/").joined(separator: "/")
        return "/" + trimmed
    }

    /// `nested`: inside a tree being answered, where a node that is a value and has children
    /// (`/led/source`, `/hrv/pacer`) carries its value and access under `ENTRAIN_VALUE` and
    /// `ENTRAIN_ACCESS`: python-oscquery (0.4.0) cannot read a tree with a node that is both a
    /// container and a value. The node's own query answers them plainly.
    private static func json(_ node: Node, path: String, nested: Bool = false) -> [String: Any] {
        var out: [String: Any] = ["FULL_PATH": path]
        if let method = node.method {
            let value = method.value?()
            let aside = nested && !node.children.isEmpty && value != nil
            // Inside a tree, a node without a value to read (a command, a stream entrain sends, a
            // metric not yet measured) answers ACCESS 0, as python-oscquery requires, with its
            // access under ENTRAIN_ACCESS; a command's own query answers it plainly (2).
            let valueless = method.value == nil
            out["ACCESS"] = valueless ? (nested ? 0 : method.access.rawValue) : (value == nil || aside ? 0 : method.access.rawValue)
            if (valueless && nested) || (!valueless && value == nil && method.access.rawValue != 0) {
                out["ENTRAIN_ACCESS"] = method.access.rawValue
            }
            out["DESCRIPTION"] = method.description
            if let type = method.type { out["TYPE"] = type }
            if let range = method.liveRange?() ?? method.range { out["RANGE"] = range }
            out.merge(method.extensions()) { $1 }
            if let unit = method.unit { out["UNIT"] = [unit] }
            if let clip = method.clipMode { out["CLIPMODE"] = [clip] }
            if let value, aside {
                out["ENTRAIN_VALUE"] = [value]
                out["ENTRAIN_ACCESS"] = method.access.rawValue
            } else if let value {
                out["VALUE"] = [value]
            }
        } else {
            out["ACCESS"] = 0
            out["DESCRIPTION"] = path == "/" ? "entrain" : String(path.split(separator: "/").last ?? "")
        }
        if !node.children.isEmpty {
            var contents: [String: Any] = [:]
            for (name, child) in node.children { contents[name] = json(child, path: path == "/" ? "/\(name)" : "\(path)/\(name)", nested: true) }
            out["CONTENTS"] = contents
        }
        return out
    }

    static func encode(_ object: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return [UInt8](data)
    }
}
