import ArgumentParser
import EntrainLV2

/// `entrain lv2 …`: the installed LV2 plugins, as lilv finds them.
struct LV2Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lv2", abstract: "List the installed LV2 plugins and show one's ports.",
        subcommands: [List.self, Show.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every installed plugin: name, URI, ports, and whether entrain can host it as an insert.")
        func run() {
            for plugin in LV2World.shared.plugins() {
                let audio = "\(plugin.ports(.audioIn).count)→\(plugin.ports(.audioOut).count) audio, \(plugin.ports(.controlIn).count) controls"
                let hosting = plugin.insertRefusal.map { "no: it \($0)" } ?? (plugin.isPlayable ? "instrument" : "insert")
                print("\(plugin.name)\t\(plugin.uri)\t\(audio)\t\(hosting)")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One plugin's class, required features and ports (ranges, defaults, units, properties).")
        @Argument(help: "The plugin's URI.") var uri: String
        func run() throws {
            guard let plugin = LV2World.shared.plugin(uri) else { throw ValidationError(LV2Error.notInstalled(uri).description) }
            print(plugin.name)
            print("uri: \(plugin.uri)")
            print("class: \(plugin.className)\(plugin.isInstrument ? " (instrument)" : "")")
            print("required features: \(plugin.requiredFeatures.isEmpty ? "none" : plugin.requiredFeatures.joined(separator: ", "))")
            print("as an insert: \(plugin.insertRefusal.map { "no: it \($0)" } ?? "yes")")
            for port in plugin.ports { print(Self.line(port)) }
        }

        static func line(_ port: LV2Port) -> String {
            var text = "  \(port.index) \(port.symbol) (\(port.kind.rawValue)) \"\(port.name)\""
            if port.kind == .controlIn || port.kind == .controlOut {
                func f(_ v: Float?) -> String { v.map { "\($0)" } ?? "?" }
                text += " \(f(port.minimum))…\(f(port.maximum)) default \(f(port.defaultValue))"
                if !port.unit.isEmpty { text += " \(port.unit)" }
                let properties = [(port.integer, "integer"), (port.toggled, "toggle"), (port.enumeration, "enumeration"),
                                  (port.logarithmic, "logarithmic"), (port.reportsLatency, "latency")].filter(\.0).map(\.1)
                if !properties.isEmpty { text += " [\(properties.joined(separator: ", "))]" }
                if !port.scalePoints.isEmpty { text += " {" + port.scalePoints.map { "\($0.label)=\($0.value)" }.joined(separator: ", ") + "}" }
            }
            return text
        }
    }
}
