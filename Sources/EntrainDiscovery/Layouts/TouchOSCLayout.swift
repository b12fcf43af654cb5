import EntrainAddressSpace
import Foundation

/// A TouchOSC layout (`.tosc`) made from the address space: PANIC beside every page, a show page
/// (the push-button commands, the timer, the volumes, the readouts), then pages per family group.
/// Ranged numbers are faders and switches toggles on `ADDRESS/norm` (0…1 onto the parameter's own
/// curve, and fed back there), choices a button per option, read-only values labels fed by the
/// subscription, which the root's script renews every 20 s. Text and list values have no control
/// here (TouchOSC cannot type without scripting): the control page and `entrain ctl` set them.
public enum TouchOSCLayout {
    typealias N = TouchOSCNodes

    /// One cell of a page.
    enum Control {
        case fader(ControlDescriptor)
        case toggle(ControlDescriptor)
        case choice(ControlDescriptor, [String])
        case command(address: String)
        case constant(address: String, label: String, argument: String)
        case readout(address: String, unit: String)
    }

    /// At most this many options become buttons; more share a fader on `/norm` in equal bands.
    static let choiceButtons = 6

    static let width = 1024, height = 768, pagerWidth = 900
    static let columns = 3, rows = 8, top = 50, rowHeight = 84

    public static func xml(space: AddressSpace) -> String {
        var ids = 0
        func identified(_ node: XMLElement) -> XMLElement {
            var node = node
            ids += 1
            node.attributes.insert(("ID", String(format: "00000000-0000-4000-8000-%012d", ids)), at: 0)
            node.children = node.children.map { part in
                guard part.name == "children" else { return part }
                var part = part
                part.children = part.children.map(identified)
                return part
            }
            return node
        }
        let pages = self.pages(space: space).map { page(name: $0.name, controls: $0.controls) }
        let pager = N.node("PAGER", name: "pages", frame: .init(x: 0, y: 0, w: pagerWidth, h: height), children: pages)
        let root = N.node("GROUP", name: "entrain", frame: .init(x: 0, y: 0, w: width, h: height),
                          properties: [N.string("script", subscriptionScript)], children: [pager, panic()])
        return "<?xml version='1.0' encoding='UTF-8'?>\n" + XMLElement("lexml", [("version", "3")], [identified(root)]).rendered
    }

    public static func data(space: AddressSpace) throws -> Data {
        try Zlib.compress(Data(xml(space: space).utf8))
    }

    /// Subscribes on load and every 20 s (a subscription lapses after 60 s without renewal).
    static let subscriptionScript = """
        local last = -20000
        function update()
          local now = getMillis()
          if now - last >= 20000 then
            last = now
            sendOSC('/osc/subscribe')
          end
        end
        """

    // MARK: Pages

    static func pages(space: AddressSpace) -> [(name: String, controls: [Control])] {
        let descriptors = space.families.flatMap(\.descriptors)
        let byAddress = Dictionary(descriptors.map { ($0.address, $0) }) { first, _ in first }
        // PANIC stands beside every page (a button of its own); commands that only answer are not pressable.
        let commands = space.families.flatMap(\.commands).filter { $0.pressable && $0.address != "/panic" }
        var show: [Control] = ShowSurface.pressed(space).map { .command(address: $0.address) }
        show += ShowSurface.timerMinutes.map { .constant(address: "/timer/minutes", label: "timer \($0) min", argument: $0) }
        show += ShowSurface.values.compactMap { byAddress[$0].flatMap(control) }
        show += ShowSurface.readouts.compactMap { byAddress[$0].flatMap { $0.readOnly ? .readout(address: $0.address, unit: $0.unit) : nil } }
        show += ShowSurface.published.map { .readout(address: $0, unit: "") }

        var groups: [(name: String, controls: [Control])] = []
        func add(_ group: String, _ control: Control) {
            if let i = groups.firstIndex(where: { $0.name == group }) { groups[i].controls.append(control) } else { groups.append((group, [control])) }
        }
        for descriptor in descriptors {
            guard let control = control(descriptor) else { continue }
            add(group(descriptor.address), control)
        }
        // A command joins its family's page; one with no values beside it (/resume) is on the show page only.
        for command in commands where groups.contains(where: { $0.name == group(command.address) }) {
            add(group(command.address), .command(address: command.address))
        }

        let perPage = columns * rows
        var pages = chunks(show, perPage).enumerated().map { (index, cells) in (name: index == 0 ? "show" : "show \(index + 1)", controls: cells) }
        for group in groups {
            let parts = chunks(group.controls, perPage)
            pages += parts.enumerated().map { (index, cells) in (name: parts.count == 1 ? group.name : "\(group.name) \(index + 1)", controls: cells) }
        }
        return pages
    }

    static func group(_ address: String) -> String { String(address.split(separator: "/").first ?? "") }

    static func chunks(_ controls: [Control], _ size: Int) -> [[Control]] {
        stride(from: 0, to: controls.count, by: size).map { Array(controls[$0..<min($0 + size, controls.count)]) }
    }

    /// The control a value gets, if TouchOSC can set or show it.
    static func control(_ descriptor: ControlDescriptor) -> Control? {
        if descriptor.readOnly { return .readout(address: descriptor.address, unit: descriptor.unit) }
        if descriptor.personOnly { return nil }  // arming the strobe is the page's or the command line's, with a confirmation
        switch descriptor.kind {
        case .number(let range, _, _, _): return range == nil ? nil : .fader(descriptor)
        case .toggle: return .toggle(descriptor)
        case .choice(let options, _): return options.count <= choiceButtons ? .choice(descriptor, options) : .fader(descriptor)
        case .text, .list: return nil
        }
    }

    static func page(name: String, controls: [Control]) -> XMLElement {
        let cellWidth = (pagerWidth - 20) / columns
        let cells = controls.enumerated().flatMap { index, control -> [XMLElement] in
            let x = 10 + (index % columns) * cellWidth, y = top + (index / columns) * rowHeight
            return cell(control, frame: .init(x: x, y: y, w: cellWidth - 10, h: rowHeight - 8))
        }
        return N.node("GROUP", name: name, frame: .init(x: 0, y: 0, w: pagerWidth, h: height),
                      properties: [N.string("tabLabel", name)], children: cells)
    }

    // MARK: Cells

    /// A title above the control.
    static func cell(_ control: Control, frame f: N.Frame) -> [XMLElement] {
        let title = N.Frame(x: f.x, y: f.y, w: f.w, h: 22), body = N.Frame(x: f.x, y: f.y + 24, w: f.w, h: f.h - 24)
        switch control {
        case .fader(let d):
            return [label(name(d), title), N.node("FADER", name: d.address + "/norm", frame: body,
                properties: [N.integer("orientation", 1)],
                values: [N.value("x", default: N.number(d.normalized(d.defaultValue) ?? 0)), N.value("touch", default: "false")],
                messages: [.init(path: d.address + "/norm", arguments: [.value(key: "x", conversion: "FLOAT")])])]
        case .toggle(let d):
            return [label(name(d), title), N.node("BUTTON", name: d.address + "/norm", frame: body,
                properties: [N.integer("buttonType", 1)],
                values: [N.value("x", default: d.normalized(d.defaultValue) == 1 ? "1" : "0"), N.value("touch", default: "false")],
                messages: [.init(path: d.address + "/norm", arguments: [.value(key: "x", conversion: "FLOAT")])])]
        case .choice(let d, let options):
            let w = body.w / max(1, options.count)
            return [label(name(d), title)] + options.enumerated().map { i, option in
                button(option, address: d.address, frame: .init(x: body.x + i * w, y: body.y, w: w - 4, h: body.h),
                       argument: .constant(option, conversion: "STRING"))
            }
        case .command(let address):
            return [label(address, title), button(address, address: address, frame: body, argument: .value(key: "x", conversion: "BOOLEAN"),
                                                  condition: "ANY")]
        case .constant(let address, let text, let argument):
            return [label(text, title), button(text, address: address, frame: body, argument: .constant(argument, conversion: "FLOAT"))]
        case .readout(let address, let unit):
            return [label(address + (unit.isEmpty ? "" : " (\(unit))"), title),
                    N.node("LABEL", name: address, frame: body, values: [N.value("text", default: "–")],
                           messages: [.init(path: address, arguments: [.value(key: "text", conversion: "STRING")], send: false, trigger: "text")])]
        }
    }

    static func name(_ d: ControlDescriptor) -> String { d.address + (d.unit.isEmpty ? "" : " (\(d.unit))") }

    static func label(_ text: String, _ frame: N.Frame) -> XMLElement {
        N.node("LABEL", name: "title", frame: frame, values: [N.value("text", default: text)])
    }

    /// A push button: `condition` RISE sends on the press only (a constant argument), ANY sends
    /// the press (T) and the release (F), which a command ignores.
    static func button(_ name: String, address: String, frame: N.Frame, argument: N.Argument, condition: String = "RISE") -> XMLElement {
        N.node("BUTTON", name: name, frame: frame, properties: [N.integer("buttonType", 0)],
               values: [N.value("x", default: "0"), N.value("touch", default: "false")],
               messages: [.init(path: address, arguments: [argument], receive: false, condition: condition)])
    }

    static func panic() -> XMLElement {
        N.node("BUTTON", name: "PANIC", frame: .init(x: pagerWidth + 10, y: 10, w: width - pagerWidth - 20, h: 140),
               properties: [N.integer("buttonType", 0), N.color(0.9, 0.28, 0.3)],
               values: [N.value("x", default: "0"), N.value("touch", default: "false")],
               messages: [.init(path: "/panic", arguments: [.value(key: "x", conversion: "BOOLEAN")], receive: false, condition: "RISE")])
    }
}
