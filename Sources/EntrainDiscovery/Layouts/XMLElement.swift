/// A small XML tree written as text: enough for the layouts we generate (no parsing, no
/// namespaces), with text and attribute values escaped.
struct XMLElement {
    let name: String
    var attributes: [(String, String)] = []
    var text: String?
    var children: [XMLElement] = []

    init(_ name: String, _ attributes: [(String, String)] = [], text: String? = nil, _ children: [XMLElement] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    init(_ name: String, _ children: [XMLElement]) { self.init(name, [], text: nil, children) }

    /// `<name>text</name>`.
    static func leaf(_ name: String, _ text: String) -> XMLElement { XMLElement(name, text: text) }

    var rendered: String {
        var out = ""
        render(into: &out)
        return out
    }

    private func render(into out: inout String) {
        out += "<" + name
        for (key, value) in attributes { out += " \(key)=\"\(Self.escape(value))\"" }
        if text == nil && children.isEmpty { out += "/>"; return }
        out += ">"
        if let text { out += Self.escape(text) }
        for child in children { child.render(into: &out) }
        out += "</\(name)>"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
