import EntrainAddressSpace

/// All parameters of all plugins, in one list with stable global indices.
/// A plugin's parameters occupy a contiguous range starting at its offset.
public struct ParameterTable: Sendable {
    public struct Entry: Sendable {
        public let index: Int
        public let plugin: Int
        public let localIndex: Int
        public let descriptor: ControlDescriptor
    }

    public let entries: [Entry]
    public let pluginOffsets: [Int]
    public let plugins: [PluginDescriptor]
    private let byAddress: [String: Int]

    public init(plugins: [PluginDescriptor]) {
        var entries: [Entry] = []
        var offsets: [Int] = []
        for (p, plugin) in plugins.enumerated() {
            offsets.append(entries.count)
            for (i, spec) in plugin.parameters.enumerated() {
                entries.append(Entry(index: entries.count, plugin: p, localIndex: i, descriptor: spec.kept(at: entries.count)))
            }
        }
        var byAddress: [String: Int] = [:]
        for entry in entries {
            precondition(byAddress[entry.descriptor.address] == nil, "duplicate parameter \(entry.descriptor.address)")
            byAddress[entry.descriptor.address] = entry.index
        }
        self.entries = entries
        self.pluginOffsets = offsets
        self.plugins = plugins
        self.byAddress = byAddress
    }

    public var count: Int { entries.count }

    public func entry(for address: String) throws(ControlError) -> Entry {
        guard let index = byAddress[address] else { throw .unknown(address) }
        return entries[index]
    }

    public var defaults: ParameterValues { ParameterValues(entries.map(\.descriptor.defaultNumber)) }

    /// Every plugin's cross-parameter rules, for a whole set of values.
    public func checkConstraints(_ values: ParameterValues) throws(ControlError) {
        for p in plugins.indices { try checkConstraints(plugin: p, values, changed: nil) }
    }

    private func checkConstraints(plugin p: Int, _ values: ParameterValues, changed: String?) throws(ControlError) {
        let offset = pluginOffsets[p]
        let local = Array(values.storage[offset..<(offset + plugins[p].parameters.count)])
        if let problem = plugins[p].constraints(local) {
            throw ControlError(changed ?? problem.address, problem.reason)
        }
    }
}

/// Current values of every parameter, indexed like the table (option indices for choices).
public struct ParameterValues: Sendable, Equatable {
    public var storage: [Double]
    public init(_ storage: [Double]) { self.storage = storage }
    public subscript(index: Int) -> Double {
        get { storage[index] }
        set { storage[index] = newValue }
    }
}
