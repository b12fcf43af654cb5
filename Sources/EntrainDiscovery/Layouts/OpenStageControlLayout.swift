import EntrainAddressSpace
import Foundation

/// An Open Stage Control session (its JSON session format) made from the address space: a show
/// tab first (the push-button commands, the timer's presets, the show's values, readouts, and a
/// name field per loader: `/preset/load`, `/session/load`, …), then a tab per family group
/// (`/entrain`, `/master`, `/led`, … `/ambient`) with a fader, toggle or menu per value with its
/// range, and a panic button at the top of every tab. Open Stage Control updates a widget from
/// any OSC message on its address, so feedback and readouts need only a subscription: the root's
/// script sends `/osc/subscribe` on load and every 20 s.
public enum OpenStageControlLayout {
    public static let panicColor = "#e5484d"

    public static func session(space: AddressSpace, name: String = "entrain") -> [String: Any] {
        var groups: [(name: String, widgets: [[String: Any]])] = []
        for family in space.families {
            // Arming the strobe is not a controller's widget: the page and the command line ask for it.
            for descriptor in family.descriptors where !descriptor.readOnly && !descriptor.personOnly {
                let group = String(descriptor.address.split(separator: "/").first ?? "")
                let widget = self.widget(descriptor)
                if let index = groups.firstIndex(where: { $0.name == group }) { groups[index].widgets.append(widget) } else { groups.append((group, [widget])) }
            }
        }
        // A command a show presses is on its family's tab too (ids are unique per session).
        for command in ShowSurface.pressed(space) {
            let group = String(command.address.split(separator: "/").first ?? "")
            guard let index = groups.firstIndex(where: { $0.name == group }) else { continue }
            var widget = button(command)
            widget["id"] = "\(widget["id"] ?? "")-\(group)"
            groups[index].widgets.append(widget)
        }
        var tabs: [[String: Any]] = [tab("show", "Show", [panic()] + show(space))]
        for group in groups {
            tabs.append(tab(group.name, "/" + group.name, [panic(id: "panic-\(group.name)")] + group.widgets))
        }
        let root: [String: Any] = [
            "type": "root", "id": "root", "label": name, "tabs": tabs, "widgets": [],
            "onCreate": "send('/osc/subscribe'); setInterval(() => send('/osc/subscribe'), 20000)",
        ]
        return ["createdWith": "Open Stage Control", "version": "1.26.2", "type": "session", "content": root]
    }

    public static func data(space: AddressSpace) -> Data {
        (try? JSONSerialization.data(withJSONObject: session(space: space), options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    static func widget(_ descriptor: ControlDescriptor) -> [String: Any] {
        let id = descriptor.address.dropFirst().replacingOccurrences(of: "/", with: "_")
        let label = descriptor.address.split(separator: "/").dropFirst().joined(separator: "/") + (descriptor.unit.isEmpty ? "" : " (\(descriptor.unit))")
        var widget: [String: Any] = ["id": id, "label": label, "address": descriptor.address, "preArgs": [], "target": [],
                                     "html": descriptor.summary]
        switch descriptor.kind {
        case .number(let range, let step, let curve, let integer):
            widget["type"] = "fader"
            widget["horizontal"] = true
            widget["height"] = 60
            widget["range"] = ["min": range?.lowerBound ?? 0, "max": range?.upperBound ?? 1]
            widget["logScale"] = curve == .logarithmic && (range?.lowerBound ?? 0) > 0
            widget["step"] = step ?? (integer ? 1 : false)  // a whole number's fader sends whole numbers
            widget["default"] = descriptor.defaultValue.number ?? range?.lowerBound ?? 0
        case .toggle:
            widget["type"] = "button"
            widget["mode"] = "toggle"
            widget["on"] = true  // T/F, as entrain answers and feeds toggles back
            widget["off"] = false
        case .choice(let options, _):
            widget["type"] = "dropdown"
            widget["values"] = Dictionary(uniqueKeysWithValues: options.map { ($0, $0) })
        case .list(let options):
            let every = OSCQueryMethod.combinations(options) ?? options  // every value it can hold
            widget["type"] = "dropdown"
            widget["values"] = Dictionary(uniqueKeysWithValues: every.map { ($0, $0) })
        case .text(let options):
            if let options {
                widget["type"] = "dropdown"
                widget["values"] = Dictionary(uniqueKeysWithValues: options.map { ($0, $0) })
            } else {
                widget["type"] = "input"
            }
        }
        return widget
    }

    /// The show tab: every command a show presses (press `T`, release `F`: the ambient engine's
    /// play and stop, resume, the session transport, …), the timer's presets (a tap sends the minutes, nothing on release), the
    /// show's values, its readouts (text fed by the subscription) and a name field per loader.
    static func show(_ space: AddressSpace) -> [[String: Any]] {
        let buttons = ShowSurface.pressed(space).map(button)
        let timer = ShowSurface.timerMinutes.map { minutes in
            var widget = button("timer-\(minutes)", "Timer \(minutes) min", "/timer/minutes")
            widget["mode"] = "tap"
            widget["on"] = Double(minutes) ?? 0
            return widget
        }
        let descriptors = space.families.flatMap(\.descriptors)
        let values = ShowSurface.values.compactMap { address in descriptors.first { $0.address == address && !$0.readOnly && !$0.personOnly } }
            .map { descriptor in
                var widget = self.widget(descriptor)
                widget["id"] = "show-\(widget["id"] ?? "")"
                return widget
            }
        let watched = ShowSurface.readouts.filter { address in descriptors.contains { $0.address == address && $0.readOnly } } + ShowSurface.published
        let readouts: [[String: Any]] = watched.map { address in
            ["type": "text", "id": "readout" + address.replacingOccurrences(of: "/", with: "_"), "label": address,
             "address": address, "preArgs": [], "target": [], "value": "–"]
        }
        let loaders: [[String: Any]] = ShowSurface.loaders(space).map { command in
            ["type": "input", "id": "load" + command.address.replacingOccurrences(of: "/", with: "_"),
             "label": command.address.split(separator: "/").joined(separator: " ") + " (name)",
             "address": command.address, "preArgs": [], "target": [], "html": command.summary]
        }
        return buttons + timer + values + readouts + loaders
    }

    static func tab(_ id: String, _ label: String, _ widgets: [[String: Any]]) -> [String: Any] {
        ["type": "tab", "id": "tab-\(id)", "label": label, "layout": "grid", "gridTemplate": 4, "widgets": widgets, "tabs": []]
    }

    static func button(_ id: String, _ label: String, _ address: String) -> [String: Any] {
        ["type": "button", "id": id, "label": label, "address": address, "mode": "push", "on": 1, "off": 0, "preArgs": [], "target": []]
    }

    /// `/session/play` → a push button "Session play" with the command's summary. It sends `T`
    /// on the press and `F` on the release, as TouchOSC's do: a number would be a fade to
    /// `/ambient/play`, where `T` is the press and `F` the release every command ignores.
    static func button(_ command: CommandDescriptor) -> [String: Any] {
        let words = command.address.split(separator: "/").joined(separator: " ")
        var widget = button(words.replacingOccurrences(of: " ", with: "-"), words.prefix(1).uppercased() + words.dropFirst(), command.address)
        widget["on"] = true
        widget["off"] = false
        widget["html"] = command.summary
        return widget
    }

    static func panic(id: String = "panic") -> [String: Any] {
        var widget = button(id, "PANIC", "/panic")
        widget["colorWidget"] = panicColor
        widget["height"] = 120
        return widget
    }
}
