import EntrainAddressSpace

/// The pieces of TouchOSC's layout XML (`<lexml version="3">`, stored zlib-compressed as
/// `.tosc`): nodes with properties, values and OSC messages. Every OSC path here is a constant
/// partial: the address a control sends never depends on a name or index at run time.
enum TouchOSCNodes {
    struct Frame { var x, y, w, h: Int }

    /// How a control's value goes out: `VALUE x` scaled onto `scale`, as a conversion
    /// (`FLOAT`, `BOOLEAN`, `STRING`); or a constant argument.
    enum Argument {
        case value(key: String, conversion: String, scale: ClosedRange<Double> = 0...1)
        case constant(String, conversion: String)
    }

    struct Message {
        var path: String
        var arguments: [Argument]
        var send = true
        var receive = true
        /// The value change that sends: `ANY`, or `RISE` for a press only.
        var condition = "ANY"
        var trigger = "x"
    }

    static func node(_ type: String, name: String, frame: Frame, properties: [XMLElement] = [], values: [XMLElement] = [],
                     messages: [Message] = [], children: [XMLElement] = []) -> XMLElement {
        XMLElement("node", [("type", type)], [
            XMLElement("properties", [string("name", name), frameProperty(frame)] + properties),
            XMLElement("values", values),
            XMLElement("messages", messages.map(osc)),
            XMLElement("children", children),
        ])
    }

    static func property(_ type: String, _ key: String, _ value: [XMLElement]) -> XMLElement {
        XMLElement("property", [("type", type)], [.leaf("key", key), XMLElement("value", value)])
    }

    static func property(_ type: String, _ key: String, _ text: String) -> XMLElement {
        XMLElement("property", [("type", type)], [.leaf("key", key), .leaf("value", text)])
    }

    static func string(_ key: String, _ text: String) -> XMLElement { property("s", key, text) }
    static func integer(_ key: String, _ n: Int) -> XMLElement { property("i", key, "\(n)") }
    static func boolean(_ key: String, _ on: Bool) -> XMLElement { property("b", key, on ? "1" : "0") }

    static func frameProperty(_ f: Frame) -> XMLElement {
        property("r", "frame", [.leaf("x", "\(f.x)"), .leaf("y", "\(f.y)"), .leaf("w", "\(f.w)"), .leaf("h", "\(f.h)")])
    }

    static func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> XMLElement {
        property("c", "color", [.leaf("r", "\(r)"), .leaf("g", "\(g)"), .leaf("b", "\(b)"), .leaf("a", "\(a)")])
    }

    /// A value of the control (`x`, `touch`, `text`) with its default.
    static func value(_ key: String, default text: String) -> XMLElement {
        XMLElement("value", [.leaf("key", key), .leaf("locked", "0"), .leaf("lockedDefaultCurrent", "0"),
                             .leaf("default", text), .leaf("defaultPull", "0")])
    }

    static func osc(_ message: Message) -> XMLElement {
        XMLElement("osc", [
            .leaf("enabled", "1"), .leaf("send", message.send ? "1" : "0"), .leaf("receive", message.receive ? "1" : "0"),
            .leaf("feedback", "0"), .leaf("connections", "00001"),
            XMLElement("triggers", [XMLElement("trigger", [.leaf("var", message.trigger), .leaf("condition", message.condition)])]),
            XMLElement("path", [partial("CONSTANT", "STRING", message.path)]),
            XMLElement("arguments", message.arguments.map { argument in
                switch argument {
                case .value(let key, let conversion, let scale): partial("VALUE", conversion, key, scale)
                case .constant(let text, let conversion): partial("CONSTANT", conversion, text)
                }
            }),
        ])
    }

    static func partial(_ type: String, _ conversion: String, _ value: String, _ scale: ClosedRange<Double> = 0...1) -> XMLElement {
        XMLElement("partial", [.leaf("type", type), .leaf("conversion", conversion), .leaf("value", value),
                               .leaf("scaleMin", number(scale.lowerBound)), .leaf("scaleMax", number(scale.upperBound))])
    }

    static func number(_ x: Double) -> String { ControlDescriptor.format(x) }
}
