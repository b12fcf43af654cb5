import CLilv
import Foundation

/// The installed LV2 plugins, through lilv: discovery and descriptions. lilv is not
/// thread-safe, so every call goes through `lock`. One world for the process (loading every
/// bundle's data takes a moment).
public final class LV2World: @unchecked Sendable {
    public static let shared = LV2World()

    let world: OpaquePointer
    let lock = NSLock()
    private var nodes: [String: OpaquePointer] = [:]
    private var cache: [String: LV2Plugin]?
    private var described: [String: LV2Plugin] = [:]
    /// URIs ↔ numbers for every plugin of the process (the urid features).
    public let urids = URIDMap()

    init() {
        world = lilv_world_new()
        lilv_world_load_all(world)
    }

    /// Every installed plugin, by name.
    public func plugins() -> [LV2Plugin] {
        lock.withLock { loadAll().values.sorted { $0.name.lowercased() < $1.name.lowercased() } }
    }

    /// The plugin with `uri`, or nil when none is installed (described alone: quick).
    public func plugin(_ uri: String) -> LV2Plugin? {
        lock.withLock {
            if let known = cache?[uri] ?? described[uri] { return known }
            guard let p = lilvPlugin(uri) else { return nil }
            let plugin = describe(p)
            described[uri] = plugin
            return plugin
        }
    }

    /// Read one more bundle (a folder with a manifest.ttl) besides the installed ones.
    public func load(bundle folder: URL) {
        lock.withLock {
            let path = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
            let node = lilv_new_file_uri(world, nil, path)
            lilv_world_load_bundle(world, node)
            lilv_node_free(node)
            cache = nil
        }
    }

    /// lilv's handle of `uri` (call with the lock held).
    func lilvPlugin(_ uri: String) -> OpaquePointer? {
        let node = lilv_new_uri(world, uri)
        defer { lilv_node_free(node) }
        return lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), node)
    }

    /// A URI node kept for the world's life (call with the lock held).
    func node(_ uri: String) -> OpaquePointer {
        if let n = nodes[uri] { return n }
        let n = lilv_new_uri(world, uri)!
        nodes[uri] = n
        return n
    }

    private func loadAll() -> [String: LV2Plugin] {
        if let cache { return cache }
        var out: [String: LV2Plugin] = [:]
        let all = lilv_world_get_all_plugins(world)
        var it = lilv_plugins_begin(all)
        while !lilv_plugins_is_end(all, it) {
            if let p = lilv_plugins_get(all, it) {
                let plugin = describe(p)
                out[plugin.uri] = plugin
            }
            it = lilv_plugins_next(all, it)
        }
        cache = out
        return out
    }

    private func describe(_ p: OpaquePointer) -> LV2Plugin {
        let uri = Self.string(lilv_plugin_get_uri(p))
        let nameNode = lilv_plugin_get_name(p)
        defer { lilv_node_free(nameNode) }
        let pluginClass = lilv_plugin_get_class(p)
        let className = Self.string(lilv_plugin_class_get_label(pluginClass))
        let classURI = Self.string(lilv_plugin_class_get_uri(pluginClass))
        var features: [String] = []
        if let required = lilv_plugin_get_required_features(p) {
            var it = lilv_nodes_begin(required)
            while !lilv_nodes_is_end(required, it) {
                features.append(Self.string(lilv_nodes_get(required, it)))
                it = lilv_nodes_next(required, it)
            }
            lilv_nodes_free(required)
        }
        let ports = (0..<lilv_plugin_get_num_ports(p)).map { describePort(p, Int($0)) }
        return LV2Plugin(uri: uri, name: Self.string(nameNode), className: className,
                         isInstrument: classURI == LV2URI.instrument, ports: ports, requiredFeatures: features,
                         bundle: Self.string(lilv_plugin_get_bundle_uri(p)))
    }

    private func describePort(_ p: OpaquePointer, _ index: Int) -> LV2Port {
        let port = lilv_plugin_get_port_by_index(p, UInt32(index))
        func isA(_ uri: String) -> Bool { lilv_port_is_a(p, port, node(uri)) }
        func has(_ uri: String) -> Bool { lilv_port_has_property(p, port, node(uri)) }
        let input = isA(LV2URI.inputPort)
        let kind: LV2Port.Kind
        if isA(LV2URI.audioPort) { kind = input ? .audioIn : .audioOut }
        else if isA(LV2URI.controlPort) { kind = input ? .controlIn : .controlOut }
        else if isA(LV2URI.atomPort) { kind = input ? .atomIn : .atomOut }
        else if isA(LV2URI.cvPort) { kind = input ? .cvIn : .cvOut }
        else { kind = .other }
        var def: OpaquePointer?, min: OpaquePointer?, max: OpaquePointer?
        lilv_port_get_range(p, port, &def, &min, &max)
        defer { lilv_node_free(def); lilv_node_free(min); lilv_node_free(max) }
        func number(_ n: OpaquePointer?) -> Float? {
            guard let n, lilv_node_is_float(n) || lilv_node_is_int(n) else { return nil }
            return lilv_node_as_float(n)
        }
        var points: [(label: String, value: Float)] = []
        if let scale = lilv_port_get_scale_points(p, port) {
            var it = lilv_scale_points_begin(scale)
            while !lilv_scale_points_is_end(scale, it) {
                if let sp = lilv_scale_points_get(scale, it) {
                    points.append((Self.string(lilv_scale_point_get_label(sp)), lilv_node_as_float(lilv_scale_point_get_value(sp))))
                }
                it = lilv_scale_points_next(scale, it)
            }
            lilv_scale_points_free(scale)
        }
        points.sort { $0.value < $1.value }
        let nameNode = lilv_port_get_name(p, port)
        defer { lilv_node_free(nameNode) }
        return LV2Port(index: index, symbol: Self.string(lilv_port_get_symbol(p, port)), name: Self.string(nameNode),
                       kind: kind, minimum: number(min), maximum: number(max), defaultValue: number(def),
                       unit: unitSymbol(p, port), integer: has(LV2URI.integer), toggled: has(LV2URI.toggled),
                       logarithmic: has(LV2URI.logarithmic), scalePoints: points, enumeration: has(LV2URI.enumeration),
                       reportsLatency: has(LV2URI.reportsLatency), optional: has(LV2URI.connectionOptional),
                       takesMIDI: kind == .atomIn && lilv_port_supports_event(p, port, node(LV2URI.midiEvent)),
                       relativeToSampleRate: has(LV2URI.sampleRate))
    }

    /// The symbol of the port's unit ("dB"), from the units vocabulary lilv has loaded.
    private func unitSymbol(_ p: OpaquePointer, _ port: OpaquePointer?) -> String {
        guard let unit = lilv_port_get(p, port, node(LV2URI.unit)) else { return "" }
        defer { lilv_node_free(unit) }
        guard let symbol = lilv_world_get(world, unit, node(LV2URI.unitSymbol), nil) else {
            return lilv_node_is_string(unit) ? Self.string(unit) : ""
        }
        defer { lilv_node_free(symbol) }
        return Self.string(symbol)
    }

    static func string(_ node: OpaquePointer?) -> String {
        guard let node, let c = lilv_node_as_string(node) else { return "" }
        return String(cString: c)
    }
}

/// The vocabulary the host reads.
enum LV2URI {
    static let core = "http://lv2plug.in/ns/lv2core#"
    static let instrument = core + "InstrumentPlugin"
    static let inputPort = core + "InputPort"
    static let audioPort = core + "AudioPort"
    static let controlPort = core + "ControlPort"
    static let cvPort = core + "CVPort"
    static let atomPort = "http://lv2plug.in/ns/ext/atom#AtomPort"
    static let integer = core + "integer"
    static let toggled = core + "toggled"
    static let enumeration = core + "enumeration"
    static let reportsLatency = core + "reportsLatency"
    static let connectionOptional = core + "connectionOptional"
    static let sampleRate = core + "sampleRate"
    static let logarithmic = "http://lv2plug.in/ns/ext/port-props#logarithmic"
    static let unit = "http://lv2plug.in/ns/extensions/units#unit"
    static let unitSymbol = "http://lv2plug.in/ns/extensions/units#symbol"
    static let midiEvent = "http://lv2plug.in/ns/ext/midi#MidiEvent"
}
